/**
 * What the service refuses about where a cohort is used, as far as the plan can know it (SPEC §2;
 * service-api.md §12.6): a feature flag may not target a dynamic cohort that filters on what people
 * did (a `behavioral` condition), itself or through a dynamic cohort it contains; a cohort a live,
 * active flag targets may not gain such a condition. Static cohorts are exempt. A cohort is known by
 * its declaration in the project first (its filters as the file writes them, names and raw ids), else
 * by its live state (ids).
 */
import type { Declared } from "../../config/types.js";
import type { ProjectView } from "../../plan/kinds.js";
import type { LiveObject, ObjectLink } from "../../plan/types.js";
import { findReferences, type ReferenceSpec } from "../define/index.js";
import type { Holder } from "../define/referrers.js";
import { COHORT_BREAKDOWN, COHORT_FILTER_REFERENCES, hasBehavioralLeaf, type Json } from "./filters.js";

interface Known {
  name: string;
  id?: number | string;
  isStatic: boolean;
  filters: unknown;
}

type DeclaredCohort = Declared & { is_static?: boolean; filters?: Json };
type LiveCohort = LiveObject & {
  is_static?: boolean | null;
  filters?: Json | null;
  deleted?: boolean | null;
};

const CONTAINS = COHORT_FILTER_REFERENCES.filter((s) => s.kind === "cohort");

/** The cohorts a project knows, declared and live, and one of them by name or id. */
function cohorts(view: ProjectView | undefined) {
  const declared = (view?.declared("cohort") ?? []).filter((d) => !d.deleted) as DeclaredCohort[];
  const live = ((view?.live("cohort")?.objects ?? []) as LiveCohort[]).filter((o) => o.deleted !== true);
  const liveByName = (name: string) => live.filter((o) => o.name === name);
  const fromDeclared = (d: DeclaredCohort, match: LiveCohort | undefined): Known => ({
    name: d.name,
    ...(match?.id !== undefined ? { id: match.id } : d.id !== undefined ? { id: d.id } : {}),
    isStatic: d.is_static ?? match?.is_static === true,
    filters: d.filters ?? match?.filters,
  });
  const fromLive = (o: LiveCohort): Known => ({
    name: o.name ?? "",
    id: o.id,
    isStatic: o.is_static === true,
    filters: o.filters,
  });
  return (ref: { name?: string; id?: number | string }): Known | undefined => {
    if (ref.name !== undefined) {
      const named = declared.filter((d) => d.name === ref.name);
      if (named.length === 1 && named[0]) {
        const d = named[0];
        const match = live.find((o) =>
          d.id !== undefined ? String(o.id) === String(d.id) : o.name === d.name,
        );
        return fromDeclared(d, match);
      }
      const found = liveByName(ref.name);
      return found.length === 1 && found[0] ? fromLive(found[0]) : undefined;
    }
    const id = String(ref.id);
    const pinned = declared.find((d) => String(d.id) === id);
    const match = live.find((o) => String(o.id) === id);
    if (pinned) return fromDeclared(pinned, match);
    if (match === undefined) return undefined;
    const byName = declared.filter((d) => d.id === undefined && d.name === match.name);
    return byName.length === 1 && byName[0] && liveByName(match.name ?? "").length === 1
      ? fromDeclared(byName[0], match)
      : fromLive(match);
  };
}

/** The cohorts a cohort's filters contain: by name (the file's form) or id. */
function contained(filters: unknown): Array<{ name?: string; id?: number | string }> {
  return findReferences(filters, CONTAINS).map(({ spec, node }) =>
    typeof node[spec.name] === "string"
      ? { name: node[spec.name] as string }
      : { id: node[spec.id] as number | string },
  );
}

/**
 * The chain of dynamic cohorts from `start` to one with a behavioral condition (`["A", "B"]`: A
 * contains B, which filters on events), or undefined: the service would let a flag target it.
 */
export function behavioralChain(
  start: { name?: string; id?: number | string },
  view: ProjectView | undefined,
): string[] | undefined {
  const find = cohorts(view);
  const seen = new Set<string>();
  const walk = (ref: { name?: string; id?: number | string }, depth: number): string[] | undefined => {
    const known = find(ref);
    if (known === undefined || known.isStatic || depth > 50) return undefined;
    const key = `${known.name}\u0000${known.id ?? ""}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    if (hasBehavioralLeaf(known.filters)) return [known.name];
    for (const next of contained(known.filters)) {
      const chain = walk(next, depth + 1);
      if (chain) return [known.name, ...chain];
    }
    return undefined;
  };
  return walk(start, 0);
}

/** Why a flag may not target the cohort `link` names, in words; undefined when it may. */
export function flagCohortProblem(
  owner: string,
  link: ObjectLink,
  view: ProjectView | undefined,
): string | undefined {
  const chain = behavioralChain(link.id !== undefined ? { id: link.id } : { name: link.name }, view);
  if (chain === undefined) return undefined;
  const [first, ...rest] = chain;
  const through =
    rest.length > 0 ? `, which contains ${rest.map((n) => `cohort "${n}"`).join(", which contains ")},` : "";
  return `${owner} targets cohort "${first}"${through} which filters on what people did (a behavioral condition): the service refuses it in a flag ("Cohort '${first}' with filters on events cannot be used in feature flags."); target a cohort of person properties`;
}

/** The flag conditions' cohort references, for live flags (the service's form: ids). */
const FLAG_COHORTS: readonly ReferenceSpec[] = [
  { kind: "cohort", at: "groups/*/properties/*", where: { type: "cohort" }, name: "cohort", id: "value" },
];

/**
 * The live, active flags that target cohort `id`, directly or through live dynamic cohorts that
 * contain it: the service refuses to give it a behavioral condition while they do.
 */
export function activeFlagsUsing(id: number | string, view: ProjectView | undefined): string[] {
  const live = ((view?.live("cohort")?.objects ?? []) as LiveCohort[]).filter(
    (o) => o.deleted !== true && o.is_static !== true,
  );
  const users = new Set([String(id)]);
  for (let grew = true, rounds = 0; grew && rounds < 50; rounds++) {
    grew = false;
    for (const o of live) {
      if (users.has(String(o.id))) continue;
      if (contained(o.filters).some((r) => r.id !== undefined && users.has(String(r.id)))) {
        users.add(String(o.id));
        grew = true;
      }
    }
  }
  const flags = (view?.live("feature_flag")?.objects ?? []) as Array<
    LiveObject & { active?: boolean; deleted?: boolean; filters?: unknown }
  >;
  return flags
    .filter((f) => f.active === true && f.deleted !== true)
    .filter((f) => findReferences(f.filters, FLAG_COHORTS).some(({ node }) => users.has(String(node.value))))
    .map((f) => f.name ?? String(f.id));
}

/** Where other objects store a cohort's id: a condition or property `{type: cohort, value}`, a breakdown. */
const ANY_COHORT: readonly ReferenceSpec[] = [
  { kind: "cohort", at: "**", where: { type: "cohort" }, name: "cohort", id: "value" },
  COHORT_BREAKDOWN,
];

/** The flags that target a cohort, the insights that filter or break down by it, the cohorts that contain it. */
export const COHORT_HOLDERS: readonly Holder[] = [
  { kind: "feature_flag", field: "filters", specs: ANY_COHORT },
  { kind: "insight", field: "query", specs: ANY_COHORT },
  { kind: "cohort", field: "filters", specs: ANY_COHORT },
];
