/**
 * Batch exports. Managed fields: name (through an id pin), model, interval, the schedule's timezone,
 * offset_day and offset_hour, start_at, end_at, hogql_query (with the hogql model's primary_key,
 * version_key and incremental_mode), filters, the declared non-secret keys of destination.config and a
 * declared destination.integration (sent as `integration_id`, shown by the service as
 * `destination.integration`; the project's integrations are read to check it). `paused` is reconciled
 * by the pause / unpause endpoints. Secrets are write-only (`SecretRef`s in a plan).
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
import { recogniseReplacement } from "./replaced.js";
import { batchExportSchema } from "./schema.js";
import { batchExportBody, createBatchExport, findBatchExports, sendBatchExport } from "./send.js";
import { batchExportVerbs } from "./verbs.js";

export const batchExportKind: Kind = {
  verbs: batchExportVerbs,
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
  replaced: recogniseReplacement,
  prune: pruneBatchExport,
  state: (live) => ({ ...batchExportState(live as BatchExport) }),
  requestBody: batchExportBody,
  create: createBatchExport,
  send: sendBatchExport,
  findByName: findBatchExports,
  listLive: (client, project) => client.batchExports.listAll(project),
  pull: pullBatchExports,
};

export type { DesiredBatchExport, DesiredDestination, Interval, Model } from "./declare.js";
export type { DestinationType } from "./destinations.js";
export type { BatchExportState, LiveBatchExports } from "./live.js";
