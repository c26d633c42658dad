/**
 * Cohort calculations (service-api.md §12.4): every write of a dynamic cohort queues one
 * (`pending_version` + 1, `is_calculating: true`, the service's `increment_version_and_enqueue_calculate_cohort`);
 * a static cohort's CSV, query or criteria queue its population. The service's worker runs them a few
 * seconds later; here a queued calculation is done on the first read of the project's cohorts at
 * least `service.cohort_calculation_ms` after it was queued (0: the next read), or never by itself
 * (`null`, as PostHog's tests mock the worker) until `POST /_emulator/cohorts/recalculate`. Done:
 * `version` = `pending_version`, `last_calculation` = now, `is_calculating: false`, a history entry; a
 * static cohort's uploaded ids become its members (the persons of its project they name).
 *
 * `POST /_emulator/cohorts/upgrade_bytecode` is a service upgrade of the filter compiler: every
 * cohort's leaves get new `bytecode` and `conditionHash` (the compiler version in the header moves
 * on), `cohort_type` is computed again, and every live dynamic cohort is recalculated.
 */
import { randomUUID } from "node:crypto";
import { isDict } from "./fields.js";
import { type FilterContext, realtimeSupported, recompileFilters } from "./routes/cohort-filters.js";
import { matchesAll } from "./routes/property-filters.js";
import type { Store } from "./store.js";
import type { CohortRecord, PersonRecord } from "./types.js";

type Json = Record<string, unknown>;

/**
 * Whether a person matches a static cohort's snapshot criteria: person-property leaves are evaluated
 * (the events list's matchers), a leaf naming a static cohort is its membership; behavioural and
 * metadata leaves, and dynamic cohorts, need what the emulator does not compute, and match no one.
 */
function matchesCriteria(store: Store, node: unknown, person: PersonRecord, depth = 0): boolean {
  if (!isDict(node) || depth > 100) return false;
  if ((node.type === "AND" || node.type === "OR") && Array.isArray(node.values)) {
    const hits = node.values.map((v) => matchesCriteria(store, v, person, depth + 1));
    return node.type === "AND" ? hits.length > 0 && hits.every(Boolean) : hits.some(Boolean);
  }
  let hit = false;
  if (node.type === "person" && typeof node.key === "string") {
    hit = matchesAll(person.properties, [
      {
        key: node.key,
        value: node.value,
        operator: typeof node.operator === "string" ? node.operator : "exact",
      },
    ]);
  } else if (node.type === "cohort") {
    const cohort = store.data.cohorts.find(
      (c) => c.id === Number(node.value) && c.team_id === person.team_id,
    );
    hit = cohort?.is_static === true && cohort.people.includes(person.uuid);
  }
  return node.negation === true ? !hit : hit;
}

/** The persons of a static cohort's query (an ActorsQuery's person properties, all of them) or criteria. */
function snapshot(store: Store, cohort: CohortRecord): string[] {
  const persons = store.data.persons.filter((p) => p.team_id === cohort.team_id);
  if (cohort.pending_snapshot === "query") {
    const query = cohort.query as Json | null;
    if (query?.kind !== "ActorsQuery" || !Array.isArray(query.properties)) return [];
    const filters = query.properties.filter(isDict);
    return persons
      .filter((p) => filters.every((f) => matchesCriteria(store, { type: "person", ...f }, p)))
      .map((p) => p.uuid);
  }
  const tree = isDict(cohort.filters) ? cohort.filters.properties : undefined;
  return persons.filter((p) => matchesCriteria(store, tree, p)).map((p) => p.uuid);
}

/** What the rewrite of one project's filters looks up. */
export function filterContext(store: Store, team: number): FilterContext {
  return {
    cohort: (id) => store.data.cohorts.find((c) => c.id === id && c.team_id === team),
    action: (id) => store.data.actions.find((a) => a.id === id && a.team_id === team),
    bytecodeVersion: store.data.service.cohort_bytecode_version,
  };
}

/** Queues a dynamic cohort's calculation. */
export function enqueueCalculation(cohort: CohortRecord, now: Date): void {
  cohort.pending_version = cohort.pending_version === null ? 1 : cohort.pending_version + 1;
  cohort.is_calculating = true;
  cohort.calculation_requested_at = now.toISOString();
}

/** Queues a static cohort's population (a CSV, a query or criteria: the worker fills it). */
export function enqueuePopulation(cohort: CohortRecord, now: Date): void {
  cohort.is_calculating = true;
  cohort.calculation_requested_at = now.toISOString();
}

function finish(store: Store, cohort: CohortRecord, now: Date): void {
  const at = now.toISOString();
  if (cohort.is_static) {
    const pending = cohort.pending_import;
    if (pending) {
      const persons = store.data.persons.filter((p) => p.team_id === cohort.team_id);
      const wanted = new Set(pending.ids);
      const matched = persons.filter((p) =>
        pending.id_type === "person_id"
          ? wanted.has(p.uuid)
          : pending.id_type === "email"
            ? typeof p.properties.email === "string" && wanted.has(p.properties.email)
            : p.distinct_ids.some((d) => wanted.has(d)),
      );
      cohort.people = [...new Set([...cohort.people, ...matched.map((p) => p.uuid)])];
      cohort.pending_import = null;
    }
    if (cohort.pending_snapshot) {
      cohort.people = [...new Set([...cohort.people, ...snapshot(store, cohort)])];
      cohort.pending_snapshot = null;
    }
    cohort.count = cohort.people.length;
  } else {
    if (cohort.pending_version !== null) cohort.version = cohort.pending_version;
    cohort.count ??= 0;
  }
  cohort.calculations.push({
    id: randomUUID(),
    filters: isDict(cohort.filters) ? structuredClone(cohort.filters) : {},
    count: cohort.count,
    started_at: cohort.calculation_requested_at ?? at,
    finished_at: at,
    error: null,
    error_code: null,
  });
  cohort.last_calculation = at;
  cohort.errors_calculating = 0;
  cohort.last_error_at = null;
  cohort.is_calculating = false;
  cohort.calculation_requested_at = null;
}

/** Finishes the project's queued calculations that are due (see the module comment). */
export function settleCalculations(store: Store, team: number, now: Date): void {
  const delay = store.data.service.cohort_calculation_ms;
  if (delay === null) return;
  let changed = false;
  for (const cohort of store.data.cohorts) {
    if (cohort.team_id !== team || !cohort.is_calculating || cohort.calculation_requested_at === null)
      continue;
    if (now.getTime() - Date.parse(cohort.calculation_requested_at) < delay) continue;
    finish(store, cohort, now);
    changed = true;
  }
  if (changed) store.touch();
}

export interface RecalculateOptions {
  project?: number;
  ids?: number[];
  /** Also queue a calculation of every live dynamic cohort first (the service's periodic recalculation). */
  all: boolean;
}

export function parseRecalculateOptions(body: unknown): RecalculateOptions {
  if (body === undefined) return { all: false };
  if (!isDict(body)) throw new Error("the body must be a JSON object");
  for (const key of Object.keys(body)) {
    if (!["project", "ids", "all"].includes(key))
      throw new Error(`unknown key "${key}" (known: project, ids, all)`);
  }
  if (body.project !== undefined && !Number.isInteger(body.project))
    throw new Error('"project" must be a project id');
  if (body.ids !== undefined && !(Array.isArray(body.ids) && body.ids.every(Number.isInteger)))
    throw new Error('"ids" must be a list of cohort ids');
  if (body.all !== undefined && typeof body.all !== "boolean") throw new Error('"all" must be true or false');
  return {
    all: body.all === true,
    ...(typeof body.project === "number" ? { project: body.project } : {}),
    ...(Array.isArray(body.ids) ? { ids: body.ids as number[] } : {}),
  };
}

function selected(c: CohortRecord, options: { project?: number; ids?: number[] }): boolean {
  if (options.project !== undefined && c.team_id !== options.project) return false;
  if (options.ids !== undefined && !options.ids.includes(c.id)) return false;
  return true;
}

/** `POST /_emulator/cohorts/recalculate`: runs the queued calculations now, whatever the delay. */
export function recalculateCohorts(
  store: Store,
  now: Date,
  options: RecalculateOptions,
): { recalculated: number[] } {
  const done: number[] = [];
  for (const cohort of store.data.cohorts) {
    if (!selected(cohort, options)) continue;
    if (options.all && !cohort.deleted && !cohort.is_static) enqueueCalculation(cohort, now);
    if (!cohort.is_calculating) continue;
    finish(store, cohort, now);
    done.push(cohort.id);
  }
  if (done.length > 0) store.touch();
  return { recalculated: done };
}

/** `POST /_emulator/cohorts/upgrade_bytecode`: a new compiler version, every cohort's filters rewritten. */
export function upgradeCohortBytecode(
  store: Store,
  now: Date,
  body: unknown,
): { version: number; upgraded: number[] } {
  if (body !== undefined && !isDict(body)) throw new Error("the body must be a JSON object");
  const raw = (body ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (key !== "project" && key !== "version")
      throw new Error(`unknown key "${key}" (known: project, version)`);
  }
  const current = store.data.service.cohort_bytecode_version;
  if (raw.version !== undefined && !(Number.isInteger(raw.version) && (raw.version as number) > current))
    throw new Error(`"version" must be a whole number above the current ${current}`);
  if (raw.project !== undefined && !Number.isInteger(raw.project))
    throw new Error('"project" must be a project id');
  store.data.service.cohort_bytecode_version = (raw.version as number | undefined) ?? current + 1;
  const upgraded: number[] = [];
  // Referenced cohorts first would change nothing here: a cohort leaf's bytecode depends only on
  // whether the cohort it names is realtime, which the filters' own leaves decide.
  for (const cohort of store.data.cohorts) {
    if (raw.project !== undefined && cohort.team_id !== raw.project) continue;
    if (!cohort.filters || !isDict(cohort.filters.properties)) continue;
    cohort.filters = recompileFilters(cohort.filters, filterContext(store, cohort.team_id));
    if (!cohort.is_static) {
      cohort.cohort_type = realtimeSupported(cohort.filters) ? "realtime" : null;
      if (!cohort.deleted) enqueueCalculation(cohort, now);
    }
    upgraded.push(cohort.id);
  }
  store.touch();
  return { version: store.data.service.cohort_bytecode_version, upgraded };
}
