/**
 * How a feature flag looks from the outside (the service's `FeatureFlagSerializer`): the stored
 * filters (or the legacy default group when a flag has none) with `cohort_name` added to every cohort
 * property and `group_key_names` to `$group_key` properties of group conditions, encrypted payloads in
 * plain text to a personal API key and as the redacted placeholder to anyone else (a browser session),
 * `evaluation_contexts` blanked on
 * list and retrieve unless the service flag `flag-evaluation-tags` is on, tags only with the
 * organization's tagging feature, and the computed fields (status, experiments, eligibility).
 */
import { satisfies, userAccessLevel } from "../access.js";
import { notFound } from "../errors.js";
import { isDict } from "../fields.js";
import type { Ctx } from "../router.js";
import { flagOn } from "../service.js";
import type { FeatureFlagRecord } from "../types.js";
import { userBasic } from "./dashboard-access.js";
import { flagProperties } from "./flag-filters.js";
import { decryptPayload, REDACTED_PAYLOAD_VALUE } from "./flag-payloads.js";
import { flagStatus } from "./flag-status.js";

/** A flag of the project by the `:id` route parameter, soft-deleted ones included. */
export function findFlag(ctx: Ctx): FeatureFlagRecord {
  const raw = ctx.params.id ?? "";
  const flag = /^\d+$/.test(raw) ? ctx.store.featureFlag(ctx.project.id, Number(raw)) : undefined;
  if (!flag) throw notFound();
  return flag;
}

/** `get_filters`: a flag stored without `groups` reads as one group at the deprecated rollout column. */
function storedFilters(flag: FeatureFlagRecord): Record<string, unknown> {
  if (isDict(flag.filters) && "groups" in flag.filters) return structuredClone(flag.filters);
  return { groups: [{ properties: [], rollout_percentage: flag.rollout_percentage }] };
}

function readFilters(ctx: Ctx, flag: FeatureFlagRecord): Record<string, unknown> {
  const filters = storedFilters(flag);
  for (const { prop } of flagProperties(filters.groups)) {
    if (prop.type !== "cohort") continue;
    const id = Number(prop.value);
    prop.cohort_name = Number.isInteger(id) ? (ctx.store.cohort(ctx.project.id, id)?.name ?? null) : null;
  }
  const groups = Array.isArray(filters.groups) ? filters.groups.filter(isDict) : [];
  const grouped = groups.some(
    (g) => g.aggregation_group_type_index !== null && g.aggregation_group_type_index !== undefined,
  );
  if (grouped || (filters.aggregation_group_type_index ?? null) !== null) {
    for (const { prop } of flagProperties(filters.groups)) {
      if (prop.type !== "group" || prop.key !== "$group_key") continue;
      const keys = Array.isArray(prop.value)
        ? prop.value.map(String)
        : prop.value == null
          ? []
          : [String(prop.value)];
      // The emulator stores no groups: every key is its own display name, as for a group without `name`.
      prop.group_key_names = Object.fromEntries(keys.map((k) => [k, k]));
    }
  }
  if (flag.has_encrypted_payloads && isDict(filters.payloads)) {
    // The service decrypts for a personal API key only; anything else gets the placeholder.
    const key = ctx.principal.kind === "key";
    filters.payloads = Object.fromEntries(
      Object.entries(filters.payloads).map(([k, v]) => [
        k,
        typeof v !== "string" ? v : key ? decryptPayload(v) : REDACTED_PAYLOAD_VALUE,
      ]),
    );
  }
  return filters;
}

/** Whether the project's session replay settings name this flag (`session_recording_linked_flag`). */
export function usedInReplaySettings(ctx: Ctx, flag: FeatureFlagRecord): boolean {
  const project = ctx.store.project(flag.team_id);
  return project?.session_recording_linked_flag?.id === flag.id;
}

function variantCount(flag: FeatureFlagRecord): number {
  const multivariate = isDict(flag.filters.multivariate) ? flag.filters.multivariate : {};
  return Array.isArray(multivariate.variants) ? multivariate.variants.length : 0;
}

/** `read`: list and retrieve blank evaluation contexts without the service flag; writes answer them. */
export function renderFlag(ctx: Ctx, flag: FeatureFlagRecord, read = false) {
  const creator = ctx.store.user(flag.created_by);
  const modifier = ctx.store.user(flag.last_modified_by);
  const experiments = ctx.store.data.experiments.filter((e) => e.feature_flag === flag.id && !e.deleted);
  const variants = variantCount(flag);
  const level = userAccessLevel(ctx, "feature_flag", flag);
  return {
    id: flag.id,
    name: flag.name,
    key: flag.key,
    filters: readFilters(ctx, flag),
    deleted: flag.deleted,
    active: flag.active,
    archived: flag.archived,
    created_by: creator ? userBasic(creator) : null,
    created_at: flag.created_at,
    updated_at: flag.updated_at,
    version: flag.version,
    last_modified_by: modifier ? userBasic(modifier) : null,
    ensure_experience_continuity: flag.ensure_experience_continuity,
    experiment_set: experiments.map((e) => e.id),
    experiment_set_metadata: experiments.map((e) => ({
      id: e.id,
      name: e.name,
      is_running: e.start_date !== null && e.end_date === null,
    })),
    surveys: [],
    features: [],
    // `get_can_edit`: the caller's level on the flag reaches editor.
    can_edit: level !== null && satisfies("feature_flag", level, "editor"),
    tags: ctx.org.features.tagging ? [...flag.tags] : [],
    evaluation_contexts:
      read && !flagOn(ctx.store, "flag-evaluation-tags") ? [] : [...flag.evaluation_contexts],
    usage_dashboard: null,
    // A hard-deleted dashboard takes its link with it (the relation's cascade).
    analytics_dashboards: flag.analytics_dashboards.filter((id) =>
      ctx.store.data.dashboards.some((d) => d.id === id && d.team_id === flag.team_id),
    ),
    has_enriched_analytics: false,
    user_access_level: level,
    is_remote_configuration: flag.is_remote_configuration,
    has_encrypted_payloads: flag.has_encrypted_payloads,
    status: flagStatus(flag, ctx.now).status.toUpperCase(),
    evaluation_runtime: flag.evaluation_runtime,
    bucketing_identifier: flag.bucketing_identifier,
    last_called_at: flag.last_called_at,
    is_used_in_replay_settings: usedInReplaySettings(ctx, flag),
    is_eligible_for_experiment: variants >= 2 && variants <= 20,
  };
}
