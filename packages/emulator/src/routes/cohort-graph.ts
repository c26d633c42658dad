/**
 * Cohorts as a graph (service-api.md §12.6): a cohort's criteria as the service reads them
 * (`Cohort.properties`: its `filters`, or for a legacy cohort its `groups` turned into a property
 * tree), the cohorts it depends on, loops, and who uses a cohort (flags, directly or through other
 * cohorts; insights; other cohorts; the project's test account filters), as the newest
 * posthog/api/cohort.py and products/cohorts/backend/models/{util,dependencies}.py find them.
 * Lookups are per project: the emulator's projects have one environment each.
 */
import { isDict } from "../fields.js";
import type { Store } from "../store.js";
import type { CohortRecord, FeatureFlagRecord, InsightRecord } from "../types.js";

type Json = Record<string, unknown>;

export interface PropGroup {
  type: "AND" | "OR";
  values: Array<PropGroup | Json>;
}

export function isPropGroup(node: unknown): node is PropGroup {
  return isDict(node) && (node.type === "AND" || node.type === "OR") && Array.isArray(node.values);
}

/** `Filter(data=...).property_groups` of a `properties` value: a group, or a list read as AND. */
function groupOf(properties: unknown): PropGroup {
  if (isPropGroup(properties)) return properties;
  if (Array.isArray(properties)) return { type: "AND", values: properties.filter(isDict) };
  return { type: "AND", values: [] };
}

/**
 * `Cohort.properties`: the filters' tree, else the legacy groups' (each group's properties as an AND,
 * `{key: value}` dicts and untyped or `event` properties read as person properties; an action or event
 * group as a behavioural leaf), else an empty AND.
 */
export function cohortProperties(c: Pick<CohortRecord, "filters" | "groups">): PropGroup {
  if (c.filters && Object.keys(c.filters).length > 0) return groupOf(c.filters.properties);
  if (c.groups.length === 0) return { type: "AND", values: [] };
  const groups: PropGroup[] = [];
  for (const group of c.groups) {
    if (!isDict(group)) return { type: "AND", values: [] };
    const props = group.properties;
    if (props && (Array.isArray(props) ? props.length > 0 : isDict(props) && Object.keys(props).length > 0)) {
      if (Array.isArray(props)) {
        groups.push({
          type: "AND",
          values: props
            .filter(isDict)
            .map((p) => (p.type === undefined || p.type === "event" ? { ...p, type: "person" } : p)),
        });
      } else if (isDict(props) && !("type" in props) && !("values" in props)) {
        groups.push({
          type: "AND",
          values: Object.entries(props).map(([key, value]) => ({ key, value, type: "person" })),
        });
      } else groups.push(groupOf(props));
    } else if (group.action_id || group.event_id) {
      const count = Math.max(0, Number.parseInt(String(group.count ?? 0), 10) || 0);
      groups.push({
        type: "AND",
        values: [
          {
            key: group.action_id || group.event_id,
            type: "behavioral",
            value: count ? "performed_event_multiple" : "performed_event",
            event_type: group.action_id ? "actions" : "events",
            time_interval: "day",
            time_value: group.days || 365,
            operator: group.count_operator ?? null,
            operator_value: count,
          },
        ],
      });
    } else return { type: "AND", values: [] };
  }
  return { type: "OR", values: groups };
}

/** A leaf as `Property.to_dict()` writes it: set attributes only, `negation` only when true. */
function leafDict(leaf: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(leaf)) {
    if (v === null || v === undefined) continue;
    if (k === "negation" && v !== true) continue;
    out[k] = v;
  }
  return out;
}

/** `PropertyGroup.to_dict()`: `{type, values}`, or `{}` for an empty group. */
export function propertiesDict(group: PropGroup): Json {
  if (group.values.length === 0) return {};
  return {
    type: group.type,
    values: group.values.map((v) => (isPropGroup(v) ? propertiesDict(v) : leafDict(v))),
  };
}

/** `PropertyGroup.flat`: the leaves, a cohort leaf's numeric value read as a number (`Property`). */
export function flatLeaves(group: PropGroup): Json[] {
  const out: Json[] = [];
  for (const v of group.values) {
    if (isPropGroup(v)) out.push(...flatLeaves(v));
    else if (v.type === "cohort" && typeof v.value === "string" && /^\d+$/.test(v.value.trim()))
      out.push({ ...v, value: Number(v.value) });
    else out.push(v);
  }
  return out;
}

export function hasBehavioural(c: Pick<CohortRecord, "filters" | "groups">): boolean {
  return flatLeaves(cohortProperties(c)).some((leaf) => leaf.type === "behavioral");
}

/** A cohort of the project by id, soft-deleted ones included (the service's project-scoped lookups). */
export function projectCohort(store: Store, team: number, id: unknown): CohortRecord | undefined {
  const n = typeof id === "string" && /^\d+$/.test(id.trim()) ? Number(id) : id;
  if (typeof n !== "number" || !Number.isInteger(n)) return undefined;
  return store.data.cohorts.find((c) => c.id === n && c.team_id === team);
}

/** `get_nested_cohort_ids`: the cohorts a cohort's criteria name. */
function nestedIds(c: CohortRecord): number[] {
  const ids: number[] = [];
  for (const leaf of flatLeaves(cohortProperties(c))) {
    if (leaf.type !== "cohort" || Array.isArray(leaf.value)) continue;
    const n = Number.parseInt(String(leaf.value), 10);
    if (Number.isInteger(n) && String(n) === String(leaf.value).trim()) ids.push(n);
  }
  return ids;
}

/** What a traversal has looked up: a cohort, or `null` for one that is missing or soft-deleted. */
export type CohortCache = Map<number, CohortRecord | null>;

/**
 * `get_all_cohort_dependencies`: the cohorts a cohort depends on, transitively (live ones of its
 * project). `stopAtStatic`: a static root has none, and a static dependency's own are not followed.
 */
export function cohortDependencies(
  store: Store,
  cohort: CohortRecord,
  opts: { stopAtStatic?: boolean; cache?: CohortCache } = {},
): CohortRecord[] {
  const cache = opts.cache ?? new Map();
  if (opts.stopAtStatic && cohort.is_static) return [];
  const out: CohortRecord[] = [];
  const seen = new Set([cohort.id]);
  const queue = nestedIds(cohort);
  for (let guard = 0; queue.length > 0 && guard < 100_000; guard++) {
    const id = queue.pop() as number;
    let current = cache.get(id);
    if (current === undefined) {
      current =
        store.data.cohorts.find((c) => c.id === id && c.team_id === cohort.team_id && !c.deleted) ?? null;
      cache.set(id, current);
    }
    if (!current || seen.has(current.id)) continue;
    out.push(current);
    seen.add(current.id);
    if (!(opts.stopAtStatic && current.is_static)) queue.push(...nestedIds(current));
  }
  return out;
}

/**
 * `will_create_loops`: whether the (updated) cohort reaches itself through its criteria. A criterion
 * naming a cohort the project does not have is the service's 400 "Invalid Cohort ID in filter".
 */
export function createsLoop(store: Store, cohort: CohortRecord): "loop" | "invalid" | undefined {
  const seen = new Set<number>();
  const onPath = new Set<number>();
  const visit = (current: CohortRecord, depth: number): "loop" | "invalid" | undefined => {
    if (depth > 1000) return "loop";
    seen.add(current.id);
    onPath.add(current.id);
    for (const leaf of flatLeaves(cohortProperties(current))) {
      if (leaf.type !== "cohort") continue;
      const value = leaf.value;
      if (typeof value === "number" && onPath.has(value)) return "loop";
      if (typeof value === "number" && seen.has(value)) continue;
      const nested =
        value === cohort.id ? cohort : (projectCohort(store, cohort.team_id, value) ?? undefined);
      if (!nested) return "invalid";
      const found = visit(nested, depth + 1);
      if (found) return found;
    }
    onPath.delete(current.id);
    return undefined;
  };
  return visit(cohort, 0);
}

/** Whether any object in `json` (at any depth) satisfies `test` (jsonb_path_exists with `$.**`). */
export function anyNode(json: unknown, test: (node: Json) => boolean): boolean {
  const stack: unknown[] = [json];
  for (let guard = 0; stack.length > 0 && guard < 1_000_000; guard++) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isDict(node)) {
      if (test(node)) return true;
      stack.push(...Object.values(node));
    }
  }
  return false;
}

/** jsonpath's `@.x == n` in lax mode: a number equal to `n`, or an array holding one. */
export function jsonEquals(value: unknown, n: number): boolean {
  if (Array.isArray(value)) return value.some((v) => typeof v === "number" && v === n);
  return typeof value === "number" && value === n;
}

/** The cohort ids a flag's conditions reach (`FeatureFlag.get_cohort_ids`). */
export function flagCohortIds(
  store: Store,
  flag: FeatureFlagRecord,
  opts: { cache?: CohortCache; stopAtStatic?: boolean } = {},
): Set<number> {
  const cache = opts.cache ?? new Map();
  const ids = new Set<number>();
  const groups = Array.isArray(flag.filters.groups) ? flag.filters.groups : [];
  for (const group of groups) {
    const props = isDict(group) && Array.isArray(group.properties) ? group.properties : [];
    for (const prop of props) {
      if (!isDict(prop) || prop.type !== "cohort") continue;
      const text = String(prop.value).trim();
      if (!/^-?\d+$/.test(text)) continue;
      const id = Number(text);
      let cohort = cache.get(id);
      if (cohort === undefined) {
        cohort =
          store.data.cohorts.find((c) => c.id === id && c.team_id === flag.team_id && !c.deleted) ?? null;
        cache.set(id, cohort);
      }
      if (!cohort) continue;
      ids.add(cohort.id);
      for (const dep of cohortDependencies(store, cohort, { cache, stopAtStatic: opts.stopAtStatic }))
        ids.add(dep.id);
    }
  }
  return ids;
}

/**
 * The project's flags (not soft-deleted; `activeOnly`: enabled ones) whose conditions reach the
 * cohort, directly or through other cohorts, stopping at static ones; by id.
 */
export function flagsUsingCohort(
  store: Store,
  cohort: CohortRecord,
  opts: { activeOnly: boolean; flags?: FeatureFlagRecord[] },
): FeatureFlagRecord[] {
  const candidates = (opts.flags ?? store.data.feature_flags)
    .filter((f) => f.team_id === cohort.team_id && !f.deleted && (!opts.activeOnly || f.active))
    .filter((f) => anyNode(f.filters, (node) => node.type === "cohort"))
    .sort((a, b) => a.id - b.id);
  const cache: CohortCache = new Map([[cohort.id, cohort]]);
  return candidates.filter((f) => flagCohortIds(store, f, { cache, stopAtStatic: true }).has(cohort.id));
}

/** `get_insights_using_cohort`: the team's live insights naming the cohort in their query. */
export function insightsUsingCohort(
  store: Store,
  cohort: CohortRecord,
  insights?: InsightRecord[],
): InsightRecord[] {
  return (insights ?? store.data.insights)
    .filter((i) => i.team_id === cohort.team_id && !i.deleted && i.query !== null && i.query !== undefined)
    .filter((i) => JSON.stringify(i.query).includes('"cohort"'))
    .filter((i) => {
      if (anyNode(i.query, (node) => node.type === "cohort" && jsonEquals(node.value, cohort.id)))
        return true;
      const source = isDict(i.query) && isDict(i.query.source) ? i.query.source : undefined;
      const breakdown = source && isDict(source.breakdownFilter) ? source.breakdownFilter : undefined;
      return (
        breakdown?.breakdown_type === "cohort" &&
        Array.isArray(breakdown.breakdown) &&
        breakdown.breakdown.some((b) => typeof b === "number" && b === cohort.id)
      );
    })
    .sort((a, b) => a.id - b.id);
}

/** `get_cohorts_using_cohort`: the project's other live cohorts whose `filters` name it. */
export function cohortsUsingCohort(store: Store, cohort: CohortRecord): CohortRecord[] {
  return store.data.cohorts
    .filter((c) => c.team_id === cohort.team_id && !c.deleted && c.id !== cohort.id && c.filters)
    .filter((c) => anyNode(c.filters, (node) => node.type === "cohort" && jsonEquals(node.value, cohort.id)))
    .sort((a, b) => a.id - b.id);
}

/** Projects whose "Filter out internal and test users" names the cohort (the emulator's one environment). */
export function testAccountProjects(store: Store, cohort: CohortRecord) {
  return store.data.projects.filter(
    (p) =>
      p.id === cohort.team_id &&
      (p.test_account_filters ?? []).some(
        (f) => isDict(f) && f.type === "cohort" && typeof f.value === "number" && f.value === cohort.id,
      ),
  );
}

function hasLeafType(c: CohortRecord, type: string): boolean {
  const walk = (node: unknown): boolean => {
    if (!isDict(node)) return false;
    if (node.type === "AND" || node.type === "OR")
      return Array.isArray(node.values) && node.values.some(walk);
    return node.type === type;
  };
  return isDict(c.filters) && walk(c.filters.properties);
}

/**
 * `Cohort.is_flag_compatible`: a realtime cohort whose person and behavioural criteria have been
 * backfilled (each kind it uses has its backfill time).
 */
export function isFlagCompatible(c: CohortRecord): boolean {
  if (c.cohort_type !== "realtime") return false;
  const person = hasLeafType(c, "person");
  const behavioural = hasLeafType(c, "behavioral");
  if (!person && !behavioural) return false;
  if (person && c.last_backfill_person_properties_at === null) return false;
  if (behavioural && c.last_backfill_events_at === null) return false;
  return true;
}

/**
 * `find_behavioral_cohorts` over the team's live dynamic cohorts: the behavioural ones (unless
 * `allowRealtimeBackfilled` and flag-compatible) and every cohort reaching one through its filters.
 */
export function behaviouralCohortIds(
  store: Store,
  team: number,
  allowRealtimeBackfilled: boolean,
): Set<number> {
  const all = new Map(
    store.data.cohorts
      .filter((c) => c.team_id === team && !c.deleted && !c.is_static && c.filters)
      .filter((c) => /behavioral|cohort/i.test(JSON.stringify(c.filters)))
      .map((c) => [c.id, c]),
  );
  const graph = new Map<number, Set<number>>();
  const seeds = new Set<number>();
  const check = (values: unknown, source: number) => {
    if (!Array.isArray(values)) return;
    for (const value of values) {
      if (!isDict(value)) continue;
      if (value.type === "behavioral") seeds.add(source);
      else if (value.type === "cohort") {
        const target = Number.parseInt(String(value.value ?? "0"), 10);
        if (all.has(target)) graph.set(source, new Set([...(graph.get(source) ?? []), target]));
      } else if ((value.type === "AND" || value.type === "OR") && value.values) check(value.values, source);
    }
  };
  for (const [id, c] of all) {
    const properties = isDict(c.filters) ? c.filters.properties : undefined;
    if (isDict(properties)) check(properties.values, id);
  }
  if (allowRealtimeBackfilled) {
    for (const id of [...seeds]) if (isFlagCompatible(all.get(id) as CohortRecord)) seeds.delete(id);
  }
  const reverse = new Map<number, number[]>();
  for (const [source, targets] of graph)
    for (const target of targets) reverse.set(target, [...(reverse.get(target) ?? []), source]);
  const affected = new Set(seeds);
  const stack = [...seeds];
  while (stack.length > 0) {
    const node = stack.pop() as number;
    for (const source of reverse.get(node) ?? []) {
      if (!affected.has(source)) {
        affected.add(source);
        stack.push(source);
      }
    }
  }
  return affected;
}
