/**
 * A flag's `filters` on write, in the service's order (service-api.md §10.2; the newest
 * `FeatureFlagSerializer.validate_filters`): the property checks every write runs (operators, values
 * per operator), the serde guard, the merge with the stored filters on update (`{**stored, **sent}`,
 * so `filters: {}` is a no-op), the normalisation (groups and properties defaulted, property keys as
 * strings, `min`/`max` → `gte`/`lte`, payloads JSON-encoded strings, the flag-level
 * `aggregation_group_type_index` copied into every group and derived back), then the checks that need
 * the project: empty groups on create, `early_exit`, variants of running experiments, dependencies
 * (ids, active, cycles), variant sums, regexes and cohorts (known, and not behavioural). The structural and cross-field tiers the
 * service is still rolling out (#50084) are modelled as log-only: unknown keys are kept.
 */
import { FLAG_PROPERTY_TYPES, OPERATOR_ALIASES, PROPERTY_OPERATORS } from "posthog-gitops-shared/posthog";
import type { ApiError } from "../errors.js";
import { invalid } from "../errors.js";
import { isDict, pyType } from "../fields.js";
import type { Ctx } from "../router.js";
import { flagOn } from "../service.js";
import type { CohortRecord, FeatureFlagRecord } from "../types.js";
import {
  cohortDependencies,
  cohortProperties,
  flatLeaves,
  hasBehavioural,
  isFlagCompatible,
  projectCohort,
} from "./cohort-graph.js";
import { pyJsonDumps, pyRepr, REDACTED_PAYLOAD_VALUE } from "./flag-payloads.js";

type Json = Record<string, unknown>;

/** The operators a stored property may carry: the service's, less the aliases it rewrites. */
const SUPPORTED_OPERATORS: ReadonlySet<string> = new Set(
  PROPERTY_OPERATORS.filter((operator) => !Object.hasOwn(OPERATOR_ALIASES, operator)),
);

/** Operators the service knows but flags cannot evaluate (`FEATURE_FLAG_SUPPORTED_OPERATORS` leaves them out). */
const UNSUPPORTED_OPERATORS: ReadonlySet<string> = new Set([
  "between",
  "not_between",
  "is_cleaned_path_exact",
]);
const DATE_OPERATORS = new Set(["is_date_before", "is_date_after", "is_date_exact"]);
const LIST_OPERATORS = new Set(["icontains_multi", "not_icontains_multi"]);

/** Operators whose value must be a string (`regex`, `icontains`, `gt`, ... take one string). */
const SINGLE_VALUE_OPERATORS = new Set([
  "icontains",
  "regex",
  "not_icontains",
  "not_regex",
  "lt",
  "gt",
  "lte",
  "gte",
]);
const PROPERTY_TYPES: ReadonlySet<string> = new Set(FLAG_PROPERTY_TYPES);
const I32 = 2 ** 31;

const bad = (detail: string, code = "invalid_input"): ApiError => invalid(detail, "filters", code);

function properties(groups: unknown): Array<{ path: string; prop: Json }> {
  const out: Array<{ path: string; prop: Json }> = [];
  if (!Array.isArray(groups)) return out;
  groups.forEach((group, g) => {
    if (!isDict(group) || !Array.isArray(group.properties)) return;
    group.properties.forEach((prop, p) => {
      if (isDict(prop)) out.push({ path: `groups[${g}].properties[${p}]`, prop });
    });
  });
  return out;
}

/**
 * The value of a one-value operator: a string. A number passes for `gt` / `gte` / `lt` / `lte`, which the
 * flag service compares numerically: test_feature_flag.py asserts the refusal of lists (any of these
 * operators) and of a number for `regex`, and the tool writes numeric bounds.
 */
function singleValue(operator: string, value: unknown): boolean {
  if (typeof value === "string") return true;
  return ["gt", "gte", "lt", "lte"].includes(operator) && typeof value === "number";
}

/** Python's `str()` of a JSON value inside a message: a string as is, anything else as its repr. */
const pyStr = (value: unknown): string => (typeof value === "string" ? value : pyRepr(value));

/**
 * `determine_parsed_date_for_property_matching`: a relative date (`-30d`, `6h`, `1y`) or a date the
 * service's parser reads (an ISO date or date-time).
 */
function parsableDate(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (/^-?\d+[hdwmy]$/.test(value)) return true;
  return (
    /^\d{4}-\d{1,2}-\d{1,2}([T ][\d:.]+(Z|[+-]\d\d:?\d\d)?)?$/.test(value) && !Number.isNaN(Date.parse(value))
  );
}

/** `parse_semver`: one to three dot-separated numbers (a leading `v`, a pre-release or build suffix allowed). */
function parsableSemver(value: string): boolean {
  return /^v?\d+(\.\d+){0,2}([-+][0-9A-Za-z.+-]*)?$/.test(value.trim());
}

/** What every write checks of each property, before anything else (operator known and supported, value shape). */
function checkProperties(filters: Json): void {
  for (const { prop } of properties(filters.groups)) {
    const raw = prop.operator;
    if (raw === undefined || raw === null) continue;
    const operator = typeof raw === "string" ? (OPERATOR_ALIASES[raw] ?? raw) : raw;
    if (typeof operator === "string" && UNSUPPORTED_OPERATORS.has(operator)) {
      throw bad(`Unsupported operator for feature flags: ${operator}`, "unsupported_operator");
    }
    if (typeof operator !== "string" || !SUPPORTED_OPERATORS.has(operator)) {
      throw bad(`Invalid operator: ${typeof raw === "string" ? raw : pyRepr(raw)}`, "invalid_operator");
    }
    if (DATE_OPERATORS.has(operator) && !parsableDate(prop.value)) {
      throw bad(`Invalid date value: ${pyStr(prop.value)}`, "invalid_date");
    }
    if (SINGLE_VALUE_OPERATORS.has(operator) && !singleValue(operator, prop.value)) {
      throw bad(`Invalid value for operator ${operator}: ${pyRepr(prop.value)}`, "invalid_value");
    }
    if ((operator === "in" || operator === "not_in") && prop.type !== "cohort") {
      throw bad(
        `The '${operator}' operator is only valid for cohort properties, not '${String(prop.type)}' properties.`,
        "invalid_operator",
      );
    }
    if (operator.startsWith("semver_")) {
      if (typeof prop.value !== "string") {
        throw bad(`Invalid value for operator ${operator}: expected a semver string`, "invalid_value");
      }
      const semver = operator === "semver_wildcard" ? prop.value.replace(/[.*]+$/, "") : prop.value;
      if (!parsableSemver(semver)) {
        throw bad(`Invalid semver value for operator ${operator}: ${prop.value}`, "invalid_value");
      }
    }
    if (LIST_OPERATORS.has(operator) && !Array.isArray(prop.value)) {
      throw bad(`${operator} operator requires a list of values`, "invalid_value");
    }
  }
}

function integerOrNull(value: unknown, path: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw bad(`${path} must be an integer or null, got ${pyType(value)}`);
  }
  if (value < -I32 || value > I32 - 1) {
    throw bad(`${path} must be between ${-I32} and ${I32 - 1}, got ${value}`);
  }
}

function rollout(value: unknown, path: string, allowNull: boolean): void {
  if (value === undefined || value === null) {
    if (!allowNull) throw bad(`${path} must be a number, got null`);
    return;
  }
  if (typeof value !== "number") {
    throw bad(`${path} must be ${allowNull ? "a number or null" : "a number"}, got ${pyType(value)}`);
  }
  if (value < 0 || value > 100) throw bad(`${path} must be between 0 and 100, got ${value}`);
}

/** The serde guard: the type and bound checks that keep the flag service's cache readable. */
function serdeGuard(filters: Json): void {
  integerOrNull(filters.aggregation_group_type_index, "aggregation_group_type_index");
  for (const name of ["early_exit", "feature_enrollment"]) {
    const value = filters[name];
    if (value !== undefined && value !== null && typeof value !== "boolean") {
      throw bad(`${name} must be a boolean or null, got ${pyType(value)}`);
    }
  }
  const holdout = filters.holdout;
  if (holdout !== undefined && holdout !== null) {
    if (!isDict(holdout)) throw bad(`holdout must be a dictionary or null, got ${pyType(holdout)}`);
    integerOrNull(holdout.id, "holdout.id");
    if (holdout.id === undefined || holdout.id === null) throw bad("holdout.id must be an integer");
    if (typeof holdout.exclusion_percentage !== "number")
      throw bad("holdout.exclusion_percentage must be a number");
  }
  const groups = filters.groups ?? [];
  if (!Array.isArray(groups)) throw bad(`groups must be a list, got ${pyType(groups)}`);
  groups.forEach((group, g) => {
    if (!isDict(group)) throw bad(`groups[${g}] must be a dictionary, got ${pyType(group)}`);
    if (group.variant !== undefined && group.variant !== null && typeof group.variant !== "string") {
      throw bad(`groups[${g}].variant must be a string or null, got ${pyType(group.variant)}`);
    }
    rollout(group.rollout_percentage, `groups[${g}].rollout_percentage`, true);
    integerOrNull(group.aggregation_group_type_index, `groups[${g}].aggregation_group_type_index`);
    const props = group.properties ?? [];
    if (!Array.isArray(props)) throw bad(`groups[${g}].properties must be a list, got ${pyType(props)}`);
    props.forEach((prop, p) => {
      const path = `groups[${g}].properties[${p}]`;
      if (!isDict(prop)) throw bad(`${path} must be a dictionary, got ${pyType(prop)}`);
      integerOrNull(prop.group_type_index, `${path}.group_type_index`);
      if (prop.negation !== undefined && prop.negation !== null && typeof prop.negation !== "boolean") {
        throw bad(`${path}.negation must be a boolean or null`);
      }
    });
  });
  const multivariate = filters.multivariate;
  if (multivariate !== undefined && multivariate !== null && !isDict(multivariate)) {
    throw bad(`multivariate must be a dictionary or null, got ${pyType(multivariate)}`);
  }
  if (isDict(multivariate) && (multivariate.variants === undefined || multivariate.variants === null)) {
    throw bad("multivariate.variants must be a list");
  }
  const variants = isDict(multivariate) ? multivariate.variants : [];
  if (!Array.isArray(variants)) throw bad(`multivariate.variants must be a list, got ${pyType(variants)}`);
  variants.forEach((variant, v) => {
    const path = `multivariate.variants[${v}]`;
    if (!isDict(variant)) throw bad(`${path} must be a dictionary, got ${pyType(variant)}`);
    if (typeof variant.key !== "string") throw bad(`${path}.key must be a string`);
    if (variant.name !== undefined && variant.name !== null && typeof variant.name !== "string") {
      throw bad(`${path}.name must be a string or null`);
    }
    rollout(variant.rollout_percentage, `${path}.rollout_percentage`, false);
  });
  for (const { path, prop } of properties(groups)) {
    const key = prop.key;
    if (
      key === undefined ||
      key === null ||
      typeof key === "boolean" ||
      !["string", "number"].includes(typeof key)
    ) {
      throw bad(`${path}.key: a property key is required`);
    }
    if (typeof prop.type !== "string" || !PROPERTY_TYPES.has(prop.type))
      throw bad(`${path}.type: invalid property type`);
  }
  const payloads = filters.payloads;
  if (payloads !== undefined && payloads !== null && !isDict(payloads)) {
    throw bad("Payloads must be passed as a dictionary");
  }
  for (const value of Object.values(isDict(payloads) ? payloads : {})) {
    if (typeof value !== "string") continue;
    try {
      JSON.parse(value);
    } catch {
      throw bad("Payload value is not valid JSON");
    }
  }
}

/**
 * The service's normalisation, in place. Stored filters that predate its validation may hold
 * malformed groups; like the service, only the well-formed ones are touched.
 */
function normalise(merged: Json): void {
  if (!Array.isArray(merged.groups)) merged.groups = [];
  const groups = (merged.groups as unknown[]).filter(isDict);
  for (const group of groups) {
    if (!Array.isArray(group.properties) && group.properties !== undefined && group.properties !== null)
      continue;
    if (group.properties === undefined || group.properties === null) group.properties = [];
    for (const prop of (group.properties as unknown[]).filter(isDict)) {
      if (typeof prop.key === "number") prop.key = String(prop.key);
      if (typeof prop.operator === "string" && OPERATOR_ALIASES[prop.operator]) {
        prop.operator = OPERATOR_ALIASES[prop.operator];
      }
    }
  }
  if (isDict(merged.payloads)) {
    for (const [key, value] of Object.entries(merged.payloads)) {
      if (typeof value !== "string") merged.payloads[key] = pyJsonDumps(value);
    }
  }
  // Every condition set carries its aggregation; the flag-level value is derived back from them.
  for (const group of groups) {
    if (!("aggregation_group_type_index" in group)) {
      group.aggregation_group_type_index = merged.aggregation_group_type_index ?? null;
    }
  }
  if (groups.length > 0) {
    const first = groups[0]?.aggregation_group_type_index ?? null;
    const same = groups.every((g) => (g.aggregation_group_type_index ?? null) === first);
    merged.aggregation_group_type_index = same ? first : null;
  }
}

/**
 * The flag configuration format the service still edits through this API: filters without a
 * `version`, or version 1. Other formats (newer configurations, or junk) are refused as dependency
 * targets and cannot be updated here.
 */
export function isV1(filters: unknown): boolean {
  if (!isDict(filters) || !("version" in filters)) return true;
  return typeof filters.version === "number" && filters.version === 1;
}

const UNSUPPORTED_DEPENDENCY = () =>
  bad(
    "A flag dependency uses an unsupported configuration format. Remove this dependency to continue.",
    "unsupported_dependency_config_version",
  );

/**
 * Every flag `filters` reaches through flag properties (its own and, transitively, theirs) must be in
 * the v1 format, whatever the conditions aggregate on. On a write of filters each reference's status
 * (an active flag of the project) is checked before its format; enabling or restoring a flag checks
 * only the formats its stored dependencies reach (`statuses: false`), their statuses having their own
 * refusal.
 */
export function checkDependencyFormats(ctx: Ctx, filters: Json, opts: { statuses: boolean }): void {
  const seen = new Set<number>();
  const walk = (node: Json) => {
    for (const { prop } of properties(node.groups)) {
      if (prop.type !== "flag" || !prop.key) continue;
      const target = opts.statuses ? dependencyTarget(ctx, prop.key) : anyFlag(ctx, prop.key);
      if (!target || seen.has(target.id)) continue;
      seen.add(target.id);
      if (!isV1(target.filters)) throw UNSUPPORTED_DEPENDENCY();
      walk(target.filters);
    }
  };
  walk(filters);
}

/** An update of a flag whose own stored configuration is not v1 is refused (`attr: filters`). */
export function checkStoredFormat(flag: FeatureFlagRecord): void {
  if (!isV1(flag.filters)) {
    throw bad(
      "This flag's stored configuration cannot be updated through this API. Contact support.",
      "unsupported_config_version",
    );
  }
}

/** A flag dependency's target: an id of an active flag of the project, or the service's 400. */
function dependencyKey(ctx: Ctx, reference: unknown): string {
  return dependencyTarget(ctx, reference).key;
}

function anyFlag(ctx: Ctx, reference: unknown): FeatureFlagRecord | undefined {
  const id = Number(reference);
  return ctx.store.data.feature_flags.find((f) => f.id === id && f.team_id === ctx.project.id && !f.deleted);
}

function dependencyTarget(ctx: Ctx, reference: unknown): FeatureFlagRecord {
  const text =
    typeof reference === "number" ? String(reference) : typeof reference === "string" ? reference.trim() : "";
  if (!/^-?\d+$/.test(text)) {
    throw bad(
      `Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: '${String(reference)}'`,
    );
  }
  const id = Number(text);
  const flag = ctx.store.data.feature_flags.find(
    (f) => f.id === id && f.team_id === ctx.project.id && !f.deleted,
  );
  if (!flag) throw bad(`Flag dependency references non-existent flag with ID ${id}`);
  if (!flag.active) {
    throw bad(
      `Cannot create dependency on disabled flag '${flag.key}' (ID: ${id}). Flag dependencies must reference active flags only.`,
    );
  }
  return flag;
}

function dependencies(ctx: Ctx, filters: Json): string[] {
  const keys = new Set<string>();
  for (const { prop } of properties(filters.groups)) {
    if (prop.type === "flag" && prop.key) keys.add(dependencyKey(ctx, prop.key));
  }
  return [...keys];
}

/** Self-references and cycles through the project's flags (by key), reported as the service words them. */
function checkCycles(ctx: Ctx, currentKey: string, filters: Json): void {
  const direct = dependencies(ctx, filters);
  if (direct.includes(currentKey)) throw bad(`Feature flag '${currentKey}' cannot depend on itself`);
  const clear = new Set<string>();
  const visit = (key: string, path: string[]): void => {
    const at = path.indexOf(key);
    if (at >= 0) throw bad(`Circular dependency detected: ${[...path.slice(at), key].join(" → ")}`);
    if (clear.has(key)) return;
    const flag = ctx.store.data.feature_flags.find(
      (f) => f.key === key && f.team_id === ctx.project.id && !f.deleted,
    );
    if (flag) for (const next of dependencies(ctx, flag.filters)) visit(next, [...path, key]);
    clear.add(key);
  };
  for (const key of direct) visit(key, [currentKey]);
}

/** The condition value a behavioural leaf reports (`performed_event_multiple_times` is stored suffixed). */
const behaviouralValue = (value: unknown) =>
  value === "performed_event_multiple_times" ? "performed_event_multiple" : String(value);

/**
 * A cohort a flag condition names (the newest `validate_filters`): one of the project's (soft-deleted
 * ones are still found), and unless static, neither it nor a live dynamic cohort it depends on
 * (stopping at static ones) may have a behavioural criterion, short of a backfilled realtime cohort
 * when the organization has `realtime-cohort-flag-targeting` (`_validate_behavioral_cohort_for_feature_flag`).
 * The refusal names the first event-based condition and counts the others, as PostHog's tests of
 * test_feature_flag.py (revision 00c79cbc) assert (`performed_event_multiple_times` reads
 * `performed_event_multiple`).
 */
function checkCohort(ctx: Ctx, value: unknown): void {
  const text = typeof value === "number" || typeof value === "string" ? String(value).trim() : "";
  const cohort: CohortRecord | undefined = /^\d+$/.test(text)
    ? projectCohort(ctx.store, ctx.project.id, Number(text))
    : undefined;
  if (!cohort) throw bad(`Cohort with id ${String(value)} does not exist`, "cohort_does_not_exist");
  if (cohort.is_static) return;
  const allowRealtime = flagOn(ctx.store, "realtime-cohort-flag-targeting");
  for (const c of [cohort, ...cohortDependencies(ctx.store, cohort, { stopAtStatic: true })]) {
    if (c.is_static || !hasBehavioural(c)) continue;
    if (allowRealtime && isFlagCompatible(c)) continue;
    if (allowRealtime && c.cohort_type === "realtime") {
      throw bad(
        `Cohort '${c.name}' is still being backfilled and cannot be used in feature flags yet. It will become available once its initial backfill completes.`,
        "behavioral_cohort_found",
      );
    }
    const found = flatLeaves(cohortProperties(c)).filter((leaf) => leaf.type === "behavioral");
    const seen = [...new Set(found.map((p) => `'${String(p.key)}' (${behaviouralValue(p.value)})`))];
    const others = seen.length - 1;
    const clause = others === 0 ? seen[0] : `${seen[0]} and ${others} other${others === 1 ? "" : "s"}`;
    throw bad(
      `Cohort '${c.name}' has an event-based condition on ${clause} and cannot be used in feature flags.`,
      "behavioral_cohort_found",
    );
  }
}

function variantKeys(filters: Json): string[] {
  const multivariate = isDict(filters.multivariate) ? filters.multivariate : {};
  const variants = Array.isArray(multivariate.variants) ? multivariate.variants : [];
  return variants.filter(isDict).map((v) => String(v.key));
}

/**
 * The filters a write stores: `sent` validated and, on update, merged over `instance.filters`.
 * `creating` is the service's POST check (at least one group); `flagKey` names the flag in cycle errors.
 */
export function validateFilters(
  ctx: Ctx,
  sent: unknown,
  opts: { instance?: FeatureFlagRecord; creating: boolean; flagKey?: string },
): Json {
  const { instance } = opts;
  if (!isDict(sent))
    throw invalid(`Expected a dictionary of items but got type "${pyType(sent)}".`, "filters", "not_a_dict");
  const replacing = ctx.store.data.service.flag_filters_patch === "replace";
  if (replacing && instance && !("groups" in sent) && ctx.method === "PATCH") {
    // The older service's `validate_filters` answers a PATCH without `groups` with the stored filters,
    // unchecked, and the update goes on with them (ciphertext included, which its encrypted-payload
    // step then encrypts again).
    return structuredClone(instance.filters);
  }
  if ("version" in sent) {
    throw bad("filters.version is reserved. Remove it from the request.", "reserved_config_version");
  }
  if (instance) checkStoredFormat(instance);
  if (instance && Object.keys(sent).length === 0) {
    const stored = structuredClone(instance.filters);
    if (instance.has_encrypted_payloads && isDict(stored.payloads)) {
      stored.payloads = Object.fromEntries(
        Object.keys(stored.payloads).map((k) => [k, REDACTED_PAYLOAD_VALUE]),
      );
    }
    return stored;
  }
  checkProperties(sent);
  serdeGuard(sent);
  // Newest: the sent keys over the stored ones. Older (`replace`): what was sent, whole.
  const merged: Json =
    instance && !replacing
      ? { ...structuredClone(instance.filters), ...structuredClone(sent) }
      : structuredClone(sent);
  if (
    !replacing &&
    instance?.has_encrypted_payloads &&
    !("payloads" in sent) &&
    isDict(instance.filters.payloads)
  ) {
    merged.payloads = Object.fromEntries(
      Object.keys(instance.filters.payloads).map((k) => [k, REDACTED_PAYLOAD_VALUE]),
    );
  }
  normalise(merged);
  checkDependencyFormats(ctx, merged, { statuses: true });
  const groups = (merged.groups as unknown[]).filter(isDict);
  if (opts.creating && groups.length === 0) {
    throw bad("Feature flags must have at least one condition set (group).");
  }
  const previouslyEarlyExit = Boolean(instance?.filters.early_exit);
  if (merged.early_exit && !previouslyEarlyExit && !flagOn(ctx.store, "feature-flag-early-exit")) {
    throw bad("early_exit is not available for this organization.");
  }
  const grouped = groups.some((g) => (g.aggregation_group_type_index ?? null) !== null);
  if (grouped && instance && earlyAccessFeatures(ctx, instance).length > 0) {
    throw bad(
      "Cannot use group aggregation in any condition set when the flag is linked to an Early Access Feature.",
    );
  }
  checkRegexes(groups, instance);
  checkAggregationProperties(groups);
  if (instance) {
    const kept = new Set(variantKeys(merged));
    const removed = variantKeys(instance.filters).filter((k) => !kept.has(k));
    const running = runningExperiments(ctx, instance);
    if (removed.length > 0 && running.length > 0) {
      throw bad(
        `Cannot remove variant(s) ${removed.map((k) => `'${k}'`).join(", ")} from a feature flag that is linked to running experiment(s): ${running
          .map((e) => `"${e.name}" (ID: ${e.id})`)
          .join(", ")}. Please stop the experiment(s) before removing variants.`,
      );
    }
  }
  const currentKey = instance?.key ?? opts.flagKey;
  if (currentKey && groups.some((g) => (g.aggregation_group_type_index ?? null) === null)) {
    checkCycles(ctx, currentKey, merged);
  }
  const multivariate = isDict(merged.multivariate) ? merged.multivariate : undefined;
  const variants = Array.isArray(multivariate?.variants) ? (multivariate.variants as Json[]) : [];
  if (variants.length > 0) {
    const sum = variants.reduce((total, v) => total + Number(v.rollout_percentage ?? 0), 0);
    if (Math.round(sum * 1e6) !== 100e6) {
      throw bad("Invalid variant definitions: Variant rollout percentages must sum to 100.");
    }
  }
  const keys = new Set(variantKeys(merged));
  if (groups.some((g) => typeof g.variant === "string" && g.variant !== "" && !keys.has(g.variant))) {
    throw bad("Filters are not valid (variant override does not exist)");
  }
  for (const { prop } of properties(groups)) {
    if (prop.type === "cohort") checkCohort(ctx, prop.value);
  }
  checkPayloadKeys(merged);
  checkFilterSize(ctx, merged);
  return merged;
}

/** The project's early access features on this flag (a flag they use keeps person aggregation and is not deleted). */
export function earlyAccessFeatures(ctx: Ctx, flag: FeatureFlagRecord) {
  return ctx.store.data.early_access_features.filter(
    (f) => f.team_id === flag.team_id && f.feature_flag === flag.id && !f.deleted,
  );
}

/**
 * Each condition set's properties against its own aggregation: a person-aggregated set takes person,
 * cohort and flag properties (flags with `flag_evaluates_to`), a group-aggregated one group properties
 * of its own group type.
 */
function checkAggregationProperties(groups: Json[]): void {
  for (const group of groups) {
    const aggregation = group.aggregation_group_type_index ?? null;
    for (const prop of (Array.isArray(group.properties) ? group.properties : []).filter(isDict)) {
      if (aggregation === null) {
        if (!["person", "cohort", "flag"].includes(String(prop.type))) {
          throw bad(
            "Filters are not valid (person-aggregated conditions can only use person, cohort, and flag properties)",
          );
        }
        if (prop.type === "flag" && prop.operator !== "flag_evaluates_to") {
          throw bad("Flag properties must use the 'flag_evaluates_to' operator");
        }
      } else if (prop.type !== "group") {
        throw bad("Filters are not valid (group-aggregated conditions can only use group properties)");
      } else if ((prop.group_type_index ?? null) !== aggregation) {
        throw bad("Filters are not valid (group properties must match the condition set's group type)");
      }
    }
  }
}

/** Payload keys: variant keys on a multivariate flag, only `"true"` on a boolean one. */
function checkPayloadKeys(filters: Json): void {
  const payloads = isDict(filters.payloads) ? Object.keys(filters.payloads) : [];
  if (filters.multivariate) {
    const keys = new Set(variantKeys(filters));
    if (!payloads.every((k) => keys.has(k)))
      throw bad("Payload keys must match a variant key for multivariate flags");
  } else if (payloads.length > 1 || payloads.some((k) => k !== "true")) {
    throw bad("Payload keys must be 'true' for boolean flags");
  }
}

/** Bytes as the service's `format_bytes` writes them. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The per-flag size limit of the stored filters (`MAX_FEATURE_FLAG_FILTER_SIZE_BYTES`). */
function checkFilterSize(ctx: Ctx, filters: Json): void {
  const size = Buffer.byteLength(pyJsonDumps(filters), "utf8");
  const limit = ctx.store.data.service.max_feature_flag_filter_size_bytes;
  if (size > limit) {
    throw bad(
      `Feature flag filters exceed maximum size of ${formatBytes(limit)}. Current size: ${formatBytes(size)}. Please simplify conditions or reduce payload sizes.`,
    );
  }
}

/** Regex values must compile, unless the stored flag already has the same pattern (one another engine takes). */
function checkRegexes(groups: Json[], instance: FeatureFlagRecord | undefined): void {
  const storedPatterns = new Set(
    properties(instance?.filters.groups)
      .filter(({ prop }) => prop.operator === "regex" || prop.operator === "not_regex")
      .map(({ prop }) => prop.value),
  );
  for (const { path, prop } of properties(groups)) {
    if ((prop.operator === "regex" || prop.operator === "not_regex") && typeof prop.value === "string") {
      if (!storedPatterns.has(prop.value) && !validRegex(prop.value))
        throw bad(`${path}.value: invalid regex pattern`);
    }
  }
}

function validRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The project's experiments on this flag that are running (started, not ended, not deleted). */
export function runningExperiments(ctx: Ctx, flag: FeatureFlagRecord) {
  return ctx.store.data.experiments.filter(
    (e) => e.feature_flag === flag.id && !e.deleted && e.start_date !== null && e.end_date === null,
  );
}

/** Flags whose conditions reference `flag` by id (active, not deleted, same project), by key. */
export function dependentFlags(ctx: Ctx, flag: FeatureFlagRecord): FeatureFlagRecord[] {
  const id = String(flag.id);
  return ctx.store.data.feature_flags
    .filter(
      (f) =>
        f.team_id === flag.team_id &&
        f.active &&
        !f.deleted &&
        f.id !== flag.id &&
        properties(f.filters.groups).some(({ prop }) => prop.type === "flag" && String(prop.key) === id),
    )
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The disabled flags `flag` depends on, by key. */
export function disabledDependencies(ctx: Ctx, flag: FeatureFlagRecord): FeatureFlagRecord[] {
  const ids = new Set(
    properties(flag.filters.groups)
      .filter(({ prop }) => prop.type === "flag")
      .map(({ prop }) => Number(prop.key)),
  );
  return ctx.store.data.feature_flags
    .filter((f) => f.team_id === flag.team_id && ids.has(f.id) && !f.active && !f.deleted)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export { properties as flagProperties };
