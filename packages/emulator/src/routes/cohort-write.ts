/**
 * A cohort's create and update (service-api.md §12.2-§12.6; the newest posthog/api/cohort.py
 * `CohortSerializer`), in the serializer's order: the fields (every error collected, the first
 * reported: `filters` validated and rewritten, `query` kinds, `cohort_type` against the filters), the
 * object rule of a PATCH turning a static cohort used by a flag dynamic, then `create` / `update`:
 * `query` with criteria refused, `cohort_type` computed from the rewritten filters of a dynamic cohort,
 * a static cohort's criteria immutable, a soft delete refused while an active flag, the project's test
 * account filters, an insight or another cohort uses the cohort, loops refused, and the calculation
 * queued (cohort-calculation.ts).
 *
 * Writes are atomic here: a request the service would refuse after saving part of it (a bad CSV, a
 * dynamic cohort with a query) changes nothing.
 */
import { enqueueCalculation, enqueuePopulation, filterContext } from "../cohort-calculation.js";
import { ApiError, collectInvalid, invalid } from "../errors.js";
import { asBody, type Body, isDict, parseBool, parseString, pyType } from "../fields.js";
import { UploadedFile } from "../http.js";
import { cohortRecord } from "../records.js";
import type { Ctx } from "../router.js";
import { nineKeyGroup } from "../seed-flags.js";
import type { CohortRecord } from "../types.js";
import { readCsvIds } from "./cohort-csv.js";
import {
  cohortErrorMessage,
  filtersHaveValues,
  realtimeSupported,
  validateCohortFilters,
} from "./cohort-filters.js";
import {
  cohortDependencies,
  cohortProperties,
  cohortsUsingCohort,
  createsLoop,
  flagCohortIds,
  flagsUsingCohort,
  flatLeaves,
  insightsUsingCohort,
  projectCohort,
  testAccountProjects,
} from "./cohort-graph.js";

type Json = Record<string, unknown>;

const COHORT_TYPES = ["static", "person_property", "behavioral", "realtime", "analytical"];
const ANALYTICAL = new Set([
  "performed_event_first_time",
  "performed_event_regularly",
  "performed_event_sequence",
  "stopped_performing_event",
  "restarted_performing_event",
]);
const TYPE_PRIORITY: Record<string, number> = { static: 0, person_property: 1, behavioral: 2, analytical: 3 };

interface Fields {
  name?: string | null;
  description?: string;
  groups?: unknown[];
  deleted?: boolean;
  filters?: Json | null;
  query?: Json | null;
  is_static?: boolean;
  cohort_type?: string | null;
  person_ids?: string[];
  csv?: UploadedFile;
}

/** A form field's JSON (DRF's JSONField reads a string sent as form data). */
function jsonValue(value: unknown, attr: string, form: boolean): unknown {
  if (!form || typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw invalid("Value must be valid JSON.", attr);
  }
}

function strToBool(value: unknown): boolean {
  return ["true", "1", "yes", "on", "t", "y"].includes(String(value).trim().toLowerCase());
}

/** Whether the cohort will be static after this write (`_cohort_will_be_static`). */
function willBeStatic(body: Body, instance: CohortRecord | undefined): boolean {
  if ("is_static" in body) return strToBool(body.is_static);
  return instance?.is_static ?? false;
}

/** `CohortTypeValidationSerializer._determine_type_recursive`. */
function requiredType(
  ctx: Ctx,
  data: { is_static: boolean; query: unknown; filters: unknown },
  visited: Set<number>,
): string {
  if (data.is_static) return "static";
  if (data.query) return "analytical";
  const filters = data.filters;
  const properties = isDict(filters) ? filters.properties : undefined;
  if (!isDict(properties) || Object.keys(properties).length === 0)
    throw invalid("Cannot determine type: no valid filters found", "cohort_type");
  const analytical = (group: Json): boolean =>
    Array.isArray(group.values) &&
    group.values.some(
      (v) =>
        isDict(v) &&
        ((v.type === "behavioral" && ANALYTICAL.has(String(v.value))) ||
          ("type" in v && "values" in v && analytical(v))),
    );
  if (analytical(properties)) return "analytical";
  const walk = (group: Json): string | null => {
    let max: string | null = null;
    for (const value of Array.isArray(group.values) ? group.values : []) {
      if (!isDict(value)) continue;
      let type: string | null;
      if ("type" in value && "values" in value) type = walk(value);
      else if (value.type === "behavioral")
        type = ANALYTICAL.has(String(value.value)) ? "analytical" : "behavioral";
      else if (value.type === "person") type = "person_property";
      else if (value.type === "cohort") {
        const raw = Array.isArray(value.value) ? value.value : [value.value];
        if (!value.value) throw invalid("Cohort filter has no value", "cohort_type");
        if (raw.length !== 1) throw invalid("Cohort filter must reference exactly one cohort", "cohort_type");
        const id = Number.parseInt(String(raw[0]), 10);
        if (visited.has(id)) throw invalid("Circular cohort reference detected", "cohort_type");
        const referenced = projectCohort(ctx.store, ctx.project.id, id);
        if (!referenced) throw invalid(`Referenced cohort ${id} not found`, "cohort_type");
        type = requiredType(
          ctx,
          { is_static: referenced.is_static, query: referenced.query, filters: referenced.filters },
          new Set([...visited, id]),
        );
      } else throw invalid(`Unknown property type: ${String(value.type)}`, "cohort_type");
      if (max === null || (type !== null && (TYPE_PRIORITY[type] ?? 0) > (TYPE_PRIORITY[max] ?? 0)))
        max = type ?? max;
    }
    return max;
  };
  const found = walk(properties);
  if (found === null) throw invalid("Cannot determine type: no valid filters found", "cohort_type");
  return found;
}

/** `validate_cohort_type`: an explicit type must be the one the filters make. */
function checkCohortType(ctx: Ctx, value: string, body: Body, instance: CohortRecord | undefined): void {
  const data = {
    is_static: "is_static" in body ? strToBool(body.is_static) : (instance?.is_static ?? false),
    query: "query" in body ? body.query : (instance?.query ?? null),
    filters: "filters" in body ? body.filters : (instance?.filters ?? null),
  };
  let expected: string;
  try {
    expected = requiredType(ctx, data, new Set());
  } catch (error) {
    if (error instanceof ApiError) throw invalid("Invalid cohort type for the given filters", "cohort_type");
    throw error;
  }
  if (value !== expected) {
    throw invalid(
      `Cohort type '${value}' does not match the filters. Expected type: '${expected}'`,
      "cohort_type",
    );
  }
}

/**
 * `_validate_feature_flag_constraints`: on a PATCH of a cohort an active flag uses (directly or through
 * other cohorts, stopping at static ones), no behavioural criterion, and no criterion naming a cohort
 * with one. `attr`: `filters` from the field's validation, null from the object rule.
 */
function checkFlagConstraints(
  ctx: Ctx,
  instance: CohortRecord,
  filters: Json,
  staysStatic: boolean,
  attr: string | null,
): void {
  if (ctx.method !== "PATCH") return;
  if (instance.is_static && staysStatic) return;
  const flags = ctx.store.data.feature_flags.filter(
    (f) => f.team_id === ctx.project.id && f.active && !f.deleted,
  );
  const cache = new Map([[instance.id, instance]]);
  if (!flags.some((f) => flagCohortIds(ctx.store, f, { cache, stopAtStatic: true }).has(instance.id))) return;
  for (const leaf of flatLeaves(cohortProperties({ filters, groups: [] }))) {
    if (leaf.type === "behavioral") {
      throw invalid(
        "Behavioral filters cannot be added to cohorts used in feature flags.",
        attr,
        "behavioral_cohort_found",
      );
    }
    if (leaf.type !== "cohort") continue;
    const nested = projectCohort(ctx.store, ctx.project.id, leaf.value);
    if (!nested) continue;
    for (const dependency of [nested, ...cohortDependencies(ctx.store, nested, { stopAtStatic: true })]) {
      if (dependency.is_static) continue;
      if (flatLeaves(cohortProperties(dependency)).some((p) => p.type === "behavioral")) {
        throw invalid(
          `A cohort dependency (${dependency.name}) has filters based on events. These cohorts can't be used in feature flags.`,
          attr,
          "behavioral_cohort_found",
        );
      }
    }
  }
}

/** `validate_filters`: a static cohort without criteria keeps what was sent; otherwise the rewrite. */
function checkFilters(ctx: Ctx, raw: unknown, body: Body, instance: CohortRecord | undefined): Json | null {
  const staysStatic = willBeStatic(body, instance);
  // Stored as sent, whatever it is (the service's JSON field keeps it).
  if (staysStatic && !filtersHaveValues(raw)) return raw as Json | null;
  if (!isDict(raw) || !("properties" in raw)) {
    throw invalid("Must contain a 'properties' key with type and values", "filters__detail");
  }
  const checked = validateCohortFilters(raw, filterContext(ctx.store, ctx.project.id));
  if (!checked.ok) throw invalid(cohortErrorMessage(checked.errors), "filters");
  if (instance) checkFlagConstraints(ctx, instance, checked.filters, staysStatic, "filters");
  return checked.filters;
}

/** `validate_query`. */
function checkQuery(value: unknown): Json | null {
  if (!value) return null;
  if (!isDict(value)) throw invalid("Query must be a dictionary.", "query");
  if (value.kind !== "ActorsQuery" && value.kind !== "HogQLQuery")
    throw invalid(
      `Query must be an ActorsQuery or HogQLQuery. Got: ${value.kind === undefined ? "None" : String(value.kind)}`,
      "query",
    );
  if (value.kind === "HogQLQuery" && typeof value.query !== "string")
    throw invalid("Field required", "query");
  return value;
}

/** The reference's checks of legacy groups (service-api.md §12.3). */
function checkGroups(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw invalid("Groups must be a list of cohort group definitions.", "groups");
  value.forEach((group, i) => {
    if (!isDict(group)) throw invalid(`Cohort group at index ${i} must be an object.`, "groups");
    if (!group.properties && !group.action_id && !group.event_id)
      throw invalid(
        `Invalid cohort group at index ${i}: Cohort group needs properties or action_id or event_id`,
        "groups",
      );
  });
  return value;
}

function parseFields(ctx: Ctx, body: Body, instance: CohortRecord | undefined): Fields {
  const form = typeof ctx.headers["content-type"] === "string" && /form/i.test(ctx.headers["content-type"]);
  const out: Fields = {};
  const steps = collectInvalid();
  if ("name" in body)
    steps.step(() => {
      out.name = parseString(body.name, "name", { nullable: true, maxLength: 400 });
    });
  if ("description" in body)
    steps.step(() => {
      out.description = parseString(body.description, "description", { maxLength: 1000 }) ?? "";
    });
  if ("groups" in body)
    steps.step(() => {
      if (body.groups === null) throw invalid("This field may not be null.", "groups", "null");
      out.groups = checkGroups(jsonValue(body.groups, "groups", form));
    });
  if ("deleted" in body)
    steps.step(() => {
      out.deleted = parseBool(body.deleted, "deleted") ?? false;
    });
  if ("filters" in body)
    steps.step(() => {
      out.filters = checkFilters(ctx, jsonValue(body.filters, "filters", form), body, instance);
    });
  if ("query" in body)
    steps.step(() => {
      out.query = checkQuery(jsonValue(body.query, "query", form));
    });
  if ("is_static" in body)
    steps.step(() => {
      out.is_static = parseBool(body.is_static, "is_static") ?? false;
    });
  if ("cohort_type" in body)
    steps.step(() => {
      const value = body.cohort_type;
      if (value === null || value === "") {
        out.cohort_type = null;
        return;
      }
      if (typeof value !== "string" || !COHORT_TYPES.includes(value))
        throw invalid(`"${String(value)}" is not a valid choice.`, "cohort_type", "invalid_choice");
      checkCohortType(ctx, value, body, instance);
      out.cohort_type = value;
    });
  if ("_create_in_folder" in body)
    steps.step(() => {
      parseString(body._create_in_folder, "_create_in_folder");
    });
  if ("_create_static_person_ids" in body)
    steps.step(() => {
      const raw = body._create_static_person_ids;
      const items = Array.isArray(raw) ? raw : form && typeof raw === "string" ? [raw] : undefined;
      if (!items)
        throw invalid(
          `Expected a list of items but got type "${pyType(raw)}".`,
          "_create_static_person_ids",
          "not_a_list",
        );
      out.person_ids = items.map((item, i) => parseString(item, `_create_static_person_ids__${i}`) ?? "");
    });
  if (body.csv instanceof UploadedFile) out.csv = body.csv;
  steps.done();
  return out;
}

/** `validate`: a PATCH turning a static cohort an active flag uses dynamic keeps the flag rule. */
function checkStaticFlip(ctx: Ctx, instance: CohortRecord, fields: Fields): void {
  if (ctx.method !== "PATCH" || !instance.is_static || fields.is_static !== false) return;
  let effective: Json | null = fields.filters !== undefined ? fields.filters : instance.filters;
  if (!effective || Object.keys(effective).length === 0) {
    const groups = fields.groups ?? instance.groups;
    if (groups.length === 0) effective = null;
    else {
      const tree = cohortProperties({ filters: null, groups });
      effective = { properties: tree };
    }
  }
  if (effective && filtersHaveValues(effective)) checkFlagConstraints(ctx, instance, effective, false, null);
}

function existingPersons(ctx: Ctx, ids: string[]): string[] {
  const wanted = new Set(ids);
  return ctx.store.data.persons
    .filter((p) => p.team_id === ctx.project.id && wanted.has(p.uuid))
    .map((p) => p.uuid);
}

export function createCohort(ctx: Ctx): CohortRecord {
  const body = asBody(ctx.body);
  const fields = parseFields(ctx, body, undefined);
  const isStatic = fields.is_static ?? false;
  const hasCriteria = filtersHaveValues(fields.filters);
  if (fields.query && hasCriteria) throw invalid("Cannot set both query and filters at the same time.");
  if (!isStatic && fields.query)
    throw invalid("Cannot create a dynamic cohort with a query. Set is_static to true.");
  const upload = isStatic && fields.csv ? readCsvIds(fields.csv.content) : null;
  const now = ctx.now;
  const cohort = cohortRecord({
    id: ctx.store.data.sequences.cohort++,
    team_id: ctx.project.id,
    created_at: now.toISOString(),
    created_by: ctx.user.id,
    name: fields.name ?? null,
    description: fields.description ?? "",
    groups: (fields.groups ?? []).map((g) => nineKeyGroup(structuredClone(g))),
    deleted: fields.deleted ?? false,
    filters: fields.filters ?? null,
    query: fields.query ?? null,
    is_static: isStatic,
    cohort_type: fields.cohort_type ?? null,
  });
  if (!isStatic && cohort.filters && Object.keys(cohort.filters).length > 0) {
    cohort.cohort_type = realtimeSupported(cohort.filters) ? "realtime" : null;
  }
  ctx.store.data.cohorts.push(cohort);
  if (isStatic) {
    const personIds = fields.person_ids ?? [];
    if (personIds.length > 0) {
      cohort.people = [...new Set(existingPersons(ctx, personIds))];
      cohort.count = cohort.people.length;
    } else if (!upload && !cohort.query && !hasCriteria) cohort.count = 0;
    if (upload) {
      cohort.pending_import = upload;
      enqueuePopulation(cohort, now);
    } else if (cohort.query || hasCriteria) {
      cohort.pending_snapshot = cohort.query ? "query" : "filters";
      enqueuePopulation(cohort, now);
    }
  } else enqueueCalculation(cohort, now);
  return cohort;
}

/** The 400 of a soft delete the cohort's users refuse, or undefined. */
function deletionRefusal(ctx: Ctx, cohort: CohortRecord): string | undefined {
  const flags = flagsUsingCohort(ctx.store, cohort, { activeOnly: true });
  if (flags.length > 0) {
    return `This cohort is used in ${flags.length} active feature flag(s): ${flags.map((f) => f.name || f.key).join(", ")}. Please remove the cohort from these feature flags before deleting it.`;
  }
  const projects = testAccountProjects(ctx.store, cohort);
  if (projects.length > 0) {
    return `This cohort is used in 'Filter out internal and test users' for ${projects.length} environment(s): ${projects.map((p) => p.name).join(", ")}. Please remove the cohort from these test account filters before deleting it.`;
  }
  const named = (names: string[], count: number) =>
    `${names.join(", ")}${count > 5 ? `, and ${count - 5} more` : ""}`;
  const insights = insightsUsingCohort(ctx.store, cohort);
  if (insights.length > 0) {
    const names = insights.slice(0, 5).map((i) => i.name || i.derived_name || "Unnamed");
    return `This cohort is used in ${insights.length} insight(s): ${named(names, insights.length)}. Please remove the cohort from these insights before deleting it.`;
  }
  const cohorts = cohortsUsingCohort(ctx.store, cohort);
  if (cohorts.length > 0) {
    const names = cohorts.slice(0, 5).map((c) => c.name || "Unnamed");
    return `This cohort is used as criteria in ${cohorts.length} other cohort(s): ${named(names, cohorts.length)}. Please remove this cohort from those cohort definitions before deleting it.`;
  }
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

export function updateCohort(ctx: Ctx, cohort: CohortRecord): CohortRecord {
  const body = asBody(ctx.body);
  const fields = parseFields(ctx, body, cohort);
  checkStaticFlip(ctx, cohort, fields);
  const next: CohortRecord = structuredClone(cohort);
  const existingCriteria = filtersHaveValues(cohort.filters);
  const filtersChanged = fields.filters !== undefined && !sameJson(fields.filters, cohort.filters);
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.description !== undefined) next.description = fields.description;
  if (fields.groups !== undefined) next.groups = structuredClone(fields.groups);
  if (fields.is_static !== undefined) next.is_static = fields.is_static;
  if (fields.cohort_type !== undefined) next.cohort_type = fields.cohort_type;
  if (fields.query !== undefined) next.query = fields.query;
  if (fields.filters !== undefined) {
    next.filters = fields.filters;
    if (fields.filters && Object.keys(fields.filters).length > 0 && !next.is_static) {
      // The service validates the filters again with the cohort's count before computing the type.
      next.cohort_type =
        realtimeSupported(fields.filters) && (cohort.count ?? 0) <= 20_000_000 ? "realtime" : null;
    }
  }
  const deleted = fields.deleted;
  if (next.is_static && filtersChanged && (existingCriteria || filtersHaveValues(fields.filters))) {
    throw invalid(
      "Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead.",
    );
  }
  const deletionChange = deleted !== undefined && cohort.deleted !== deleted;
  if (deletionChange) {
    if (deleted) {
      const refusal = deletionRefusal(ctx, cohort);
      if (refusal) throw invalid(refusal);
      next.experiment_set = [];
    }
    next.deleted = deleted;
  } else if (!next.is_static) next.is_calculating = true;
  const loop = createsLoop(ctx.store, next);
  if (loop === "loop") throw invalid("Cohorts cannot reference other cohorts in a loop.");
  if (loop === "invalid") throw invalid("Invalid Cohort ID in filter");
  const upload = next.is_static && fields.csv && !deleted ? readCsvIds(fields.csv.content) : null;
  Object.assign(cohort, next);
  if (!deleted) {
    if (upload) {
      cohort.pending_import = upload;
      enqueuePopulation(cohort, ctx.now);
    } else if (cohort.is_static && fields.query) {
      cohort.pending_snapshot = "query";
      enqueuePopulation(cohort, ctx.now);
    } else if (!cohort.is_static) enqueueCalculation(cohort, ctx.now);
  }
  return cohort;
}
