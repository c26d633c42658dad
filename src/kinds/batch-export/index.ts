/**
 * Batch exports. Managed fields: name (through an id pin), model, interval, start_at, end_at,
 * hogql_query, filters, the declared non-secret keys of destination.config and a declared
 * destination.integration_id (write-only; compared with the live `destination.integration`). `paused` is
 * reconciled by the pause / unpause endpoints. Secrets are write-only (`SecretRef`s in a plan).
 */
import type { BatchExport } from "../../service/types.js";
import type { Kind } from "../kind.js";
import {
  type BatchExportInput,
  batchExportSecretPointers,
  checkSecretLiterals,
  declareBatchExport,
  quietBatchExportValue,
} from "./declare.js";
import { batchExportState, readBatchExports, rereadBatchExports } from "./live.js";
import { planBatchExport, pruneBatchExport } from "./plan.js";
import { pullBatchExports } from "./pull.js";
import { batchExportSchema } from "./schema.js";
import { batchExportBody, createBatchExport, findBatchExports, sendBatchExport } from "./send.js";

export const batchExportKind: Kind = {
  name: "batch_export",
  key: "batch_exports",
  words: { one: "batch export", many: "batch exports" },
  schema: batchExportSchema,
  declare: (input, ctx) => declareBatchExport(input as unknown as BatchExportInput, ctx),
  checkBroken: checkSecretLiterals,
  secretPointers: batchExportSecretPointers,
  quiet: quietBatchExportValue,
  read: readBatchExports,
  reread: rereadBatchExports,
  plan: planBatchExport,
  prune: pruneBatchExport,
  state: (live) => ({ ...batchExportState(live as BatchExport) }),
  requestBody: batchExportBody,
  create: createBatchExport,
  send: sendBatchExport,
  findByName: findBatchExports,
  pull: pullBatchExports,
};

export type { DesiredBatchExport, DesiredDestination, Interval, Model } from "./declare.js";
export type { DestinationType } from "./destinations.js";
export type { BatchExportState, LiveBatchExports } from "./live.js";
