/**
 * Batch exports: the reconcile handler. Its field table (fields.ts), verbs (verbs.ts) and hooks for
 * what a table cannot say: the destination's secrets and the rules across fields (declare.ts,
 * item-rules.ts), the integrations read besides the list (live.ts), the plan of destinations,
 * replacement, legacy S3 and pause / unpause (plan.ts, replaced.ts, integrations.ts) and pull's
 * secret placeholders (pull.ts). Two rooms beside it: the service-version rules (service-rules/:
 * destination types, the keys each takes, integrations, what the newest service refuses) and the
 * operations the commands use (operations/: runs, backfill windows, logs, printed commands).
 */
import { defineKind } from "../define/index.js";
import type { Kind } from "../kind.js";
import { BATCH_EXPORT_ANSWERS, type BatchExport } from "./answers.js";
import { batchExportSecretPointers, checkSecretLiterals, quietBatchExportValue } from "./declare.js";
import { batchExportFields, type DesiredBatchExport } from "./fields.js";
import { checkBatchExport } from "./item-rules.js";
import { type LiveBatchExports, readBatchExports, rereadBatchExports } from "./live.js";
import { BATCH_EXPORT, EXPORT_WORDS } from "./name.js";
import { planBatchExport } from "./plan.js";
import { pullBatchExports } from "./pull.js";
import { recogniseReplacement } from "./replaced.js";
import { BATCH_EXPORT_SCOPES } from "./scopes.js";
import { batchExportsApi } from "./service.js";
import { CONFIG_DEFS } from "./service-rules/schema.js";
import { batchExportVerbs, createBatchExport, findBatchExports } from "./verbs.js";

export const batchExportKind: Kind = defineKind<
  typeof batchExportFields.fields,
  BatchExport,
  DesiredBatchExport,
  LiveBatchExports
>({
  name: BATCH_EXPORT,
  key: "batch_exports",
  words: EXPORT_WORDS,
  schema: {
    list: "Batch exports of the project. Listing the key (even empty) lets --prune remove undeclared ones.",
    item: "A batch export. Only the keys written here are managed.",
    def: "batchExport",
    defs: CONFIG_DEFS,
  },
  fields: batchExportFields,
  verbs: batchExportVerbs,
  service: {
    list: (client, project) => batchExportsApi(client).listAll(project),
    findByName: findBatchExports,
    create: createBatchExport,
  },
  // SPEC §9: an integration by number is one project's (by `{kind, name}` it is resolved in each).
  environments: {
    projectIds: [
      { path: "/destination/integration", numbers: true },
      { path: "/destination/integration_id" },
      { path: "/destination/config/copy_inputs/authorization", numbers: true },
      { path: "/destination/config/copy_inputs/bucket_credentials", numbers: true },
    ],
    needs: [{ what: "integration", path: "/destination/integration" }],
  },
  answers: BATCH_EXPORT_ANSWERS,
  scopes: BATCH_EXPORT_SCOPES,
  hooks: {
    pin: (id) => String(id).toLowerCase(),
    declare: checkBatchExport,
    checkBroken: checkSecretLiterals,
    secretPointers: batchExportSecretPointers,
    quiet: quietBatchExportValue,
    read: readBatchExports,
    reread: rereadBatchExports,
    plan: planBatchExport,
    replaced: recogniseReplacement,
    pull: pullBatchExports,
  },
});

export type { BatchExport } from "./answers.js";
export type { DesiredBatchExport, Interval, Model } from "./fields.js";
export type { LiveBatchExports } from "./live.js";
export type { BatchExportState } from "./plan.js";
export type { DesiredDestination, DestinationType } from "./service-rules/destinations.js";
