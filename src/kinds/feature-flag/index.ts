/**
 * Feature flags (SPEC §2, §3 "Feature flags"; service-api.md §10): identified by `key` (or a pinned
 * `id`), with the field table (fields.ts), the verbs (verbs.ts, lifecycle.ts) and hooks for what a
 * table cannot say: the offline checks and secrets of encrypted payloads (checks.ts, declare.ts),
 * dependency cycles across a project's declarations, the reads besides the flag list (live.ts: archived
 * flags, pinned soft-deleted ones, cohorts, only when the files need them), the plan of filters,
 * guards and the version check (plan.ts), apply order by dependency (order.ts) and pull (pull.ts).
 *
 * Reading a project's flags is flag usage to the service (its list endpoint counts as such), so a
 * plan of files that declare no `feature_flags:` never reads them. A change-scoped plan reads the
 * change's flags by key and id (find.ts) with the flags they depend on (`references`), never the list.
 */
import { defineKind } from "../define/index.js";
import type { Kind } from "../kind.js";
import { FLAG_ANSWERS } from "./answers.js";
import { encryptedPayloadPointers } from "./checks.js";
import { checkFlagCycles, declareFlag } from "./declare.js";
import { type DesiredFlag, flagFields } from "./fields.js";
import type { Json } from "./filters.js";
import { countFlags, getFlag, searchFlags } from "./find.js";
import { ARCHIVE, UNARCHIVE } from "./lifecycle.js";
import { asLive, flagDetails, type LiveFlag, type LiveFlags, readFlags, rereadFlags } from "./live.js";
import { FEATURE_FLAG } from "./name.js";
import { flagReferencesOf, planFlag, pruneFlag } from "./plan.js";
import { pullFlags } from "./pull.js";
import { FLAG_DEFS } from "./schema.js";
import { featureFlagsApi } from "./service.js";
import {
  createFeatureFlag,
  FLAG_CREATE,
  FLAG_RESTORE,
  FLAG_SOFT_DELETE,
  FLAG_UPDATE,
  findFlags,
} from "./verbs.js";

export const featureFlagKind: Kind = defineKind<typeof flagFields.fields, LiveFlag, DesiredFlag, LiveFlags>({
  name: FEATURE_FLAG,
  key: "feature_flags",
  words: { one: "feature flag", many: "feature flags" },
  schema: {
    list: "Feature flags of the project. Listing the key (even empty) lets --prune soft-delete undeclared ones (never those matching `ignore: feature_flags:`).",
    item: "A feature flag, identified by its key (or a pinned id). Only the keys written here are managed; in `filters`, every top-level key written is managed whole.",
    def: "feature_flag",
    defs: FLAG_DEFS,
  },
  fields: flagFields,
  verbs: [FLAG_CREATE, UNARCHIVE, FLAG_UPDATE, ARCHIVE, FLAG_SOFT_DELETE, FLAG_RESTORE],
  service: {
    list: async (client, project) => (await featureFlagsApi(client).listAll(project)).map(asLive),
    search: searchFlags,
    get: getFlag,
    count: countFlags,
    findByName: findFlags,
    create: createFeatureFlag,
  },
  // SPEC §9: an overlay's variants merge by key; cohorts, flags and holdouts by id are one project's.
  environments: {
    keyedLists: [{ path: "/filters/multivariate/variants", keys: ["key"] }],
    projectIds: [
      { path: "/filters/groups/*/properties/*/value", where: { type: "cohort" } },
      { path: "/filters/groups/*/properties/*/key", where: { type: "flag" }, numbers: true },
      { path: "/filters/holdout/id" },
    ],
  },
  answers: FLAG_ANSWERS,
  hooks: {
    declare: (input, desired, ctx) => declareFlag(input as Json, desired, ctx),
    checkProject: checkFlagCycles,
    secretPointers: encryptedPayloadPointers,
    quiet: (pointer) => /^\/filters\/payloads(\/|$)/.test(pointer),
    read: readFlags,
    reread: rereadFlags,
    references: flagReferencesOf,
    plan: planFlag,
    prune: pruneFlag,
    details: flagDetails,
    pull: pullFlags,
  },
});

export type { Cohort, FeatureFlag } from "./answers.js";
export type { DesiredFlag } from "./fields.js";
export type { LiveFlag, LiveFlags } from "./live.js";
