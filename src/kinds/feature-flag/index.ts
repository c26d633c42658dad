/**
 * Feature flags (SPEC §2, §3 "Feature flags"; service-api.md §10): a PostHog model
 * (../define/model.ts) identified by `key` (or a pinned `id`), with its field table (fields.ts: the
 * filters a nested value naming flags and cohorts, references.ts) and hooks for what a table cannot
 * say: the offline checks and secrets of encrypted payloads (checks.ts, declare.ts), the reads
 * besides the flag list (live.ts: archived flags and pinned soft-deleted ones, only when the files
 * need them), guards, preconditions and apply order (plan.ts), the requests' bodies and the
 * whole filters an update sends (verbs.ts, lifecycle.ts), and pull (pull.ts).
 *
 * Reading a project's flags is flag usage to the service (its list endpoint counts as such), so a
 * plan of files that declare no `feature_flags:` never reads them. A change-scoped plan reads the
 * change's flags by key and id with the flags they depend on (their references), never the list. The
 * service reads soft-deleted flags by id: a pinned soft-deleted flag is restored with a compared update.
 */
import { defineModel } from "../define/model.js";
import { type FeatureFlag, FLAG_ANSWERS } from "./answers.js";
import { checkFlag, encryptedPayloadPointers } from "./checks.js";
import { type DesiredFlag, flagFields } from "./fields.js";
import type { Json } from "./filters.js";
import { ARCHIVE, UNARCHIVE } from "./lifecycle.js";
import { asLive, flagDetails, type LiveFlag, type LiveFlags, readFlags, rereadFlags } from "./live.js";
import { FEATURE_FLAG } from "./name.js";
import { flagAction, flagExtras } from "./plan.js";
import { generatedForFlag } from "./promote.js";
import { pullForeign } from "./pull.js";
import { FLAG_DEFS } from "./schema.js";
import { FEATURE_FLAG_SCOPES } from "./scopes.js";
import { FLAG_ENDPOINTS } from "./service.js";
import { FLAG_CREATE, FLAG_UPDATE, findFlags, ignored } from "./verbs.js";

export const flagModel = defineModel<typeof flagFields.fields, FeatureFlag, LiveFlag, DesiredFlag, LiveFlags>(
  {
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
    ...FLAG_ENDPOINTS,
    scopes: FEATURE_FLAG_SCOPES,
    answers: FLAG_ANSWERS,
    live: asLive,
    // `?key=` is exact but case-insensitive (exact keys kept); the list hides archived flags unless
    // asked, and a declared flag (or one another depends on) may be archived live: asked second.
    async search(api, project, key) {
      const exact = (flags: FeatureFlag[]) => flags.filter((f) => f.key === key);
      const found = exact(await api.listAll(project, { key }));
      return found.length > 0 ? found : exact(await api.listAll(project, { key, archived: "true" }));
    },
    readsDeleted: true,
    findByName: findFlags,
    notes: (body, answer) => ignored(body as Json, answer),
    verbs: { create: FLAG_CREATE, update: FLAG_UPDATE, own: [UNARCHIVE, ARCHIVE] },
    // SPEC §9: an overlay's variants merge by key; a flag or holdout by id is one project's (a cohort by
    // id too: the filters' reference declaration says so).
    environments: {
      keyedLists: [{ path: "/filters/multivariate/variants", keys: ["key"] }],
      projectIds: [
        { path: "/filters/groups/*/properties/*/key", where: { type: "flag" }, numbers: true },
        { path: "/filters/holdout/id" },
      ],
      // What a flag needs of each project (SPEC §9's warnings): the group types it aggregates by and
      // filters on (the cohorts it targets are its references).
      needs: [
        { what: "group_type", path: "/filters/aggregation_group_type_index" },
        { what: "group_type", path: "/filters/groups/*/aggregation_group_type_index" },
        {
          what: "group_type",
          path: "/filters/groups/*/properties/*/group_type_index",
          where: { type: "group" },
        },
      ],
    },
    hooks: {
      declare: (input, _desired, ctx) => checkFlag(input as Json, ctx),
      secretPointers: encryptedPayloadPointers,
      quiet: (pointer) => /^\/filters\/payloads(\/|$)/.test(pointer),
      read: readFlags,
      reread: rereadFlags,
      details: flagDetails,
      action: flagAction,
      extras: flagExtras,
      foreign: pullForeign,
      generated: generatedForFlag,
    },
  },
);

export const featureFlagKind = flagModel.kind;

export type { FeatureFlag } from "./answers.js";
export type { DesiredFlag } from "./fields.js";
export type { LiveFlag, LiveFlags } from "./live.js";
