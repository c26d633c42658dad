/**
 * Flag dependencies: a `type: flag` property names another flag by key. Files name flags by key; the
 * service stores ids, different in every project, so keys are resolved per project (among the
 * declarations first, then the project's live flags) and dependency order matters on apply: a flag that
 * others depend on is created, restored or enabled before them, and they are disabled or deleted before
 * it (the service refuses a dependency on a disabled flag and a disable of a flag active flags depend
 * on). Cycles are refused by the service too, so `validate` reports them first.
 */
import { isObject, type Json } from "./filters.js";

/** A flag property of a declaration: the key it names and the JSON pointer (under the flag) it sits at. */
export interface FlagReference {
  key: string;
  pointer: string;
}

/** The flag properties of declared `filters`, in order, with where each is written. */
export function flagReferences(filters: unknown): FlagReference[] {
  const out: FlagReference[] = [];
  if (!isObject(filters) || !Array.isArray(filters.groups)) return out;
  filters.groups.forEach((group, g) => {
    if (!isObject(group) || !Array.isArray(group.properties)) return;
    group.properties.forEach((prop, p) => {
      if (
        isObject(prop) &&
        prop.type === "flag" &&
        (typeof prop.key === "string" || typeof prop.key === "number")
      ) {
        out.push({ key: String(prop.key), pointer: `/filters/groups/${g}/properties/${p}/key` });
      }
    });
  });
  return out;
}

/**
 * The dependency cycles among flags (`graph`: key → keys it depends on), each reported once as the path
 * that closes it (`a → b → a`), starting from the first flag in `graph`'s order that lies on it.
 * Iterative, so a long chain cannot exhaust the stack.
 */
export function dependencyCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  const reported = new Set<string>();
  for (const start of graph.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    const stack: Array<{ key: string; next: number }> = [{ key: start, next: 0 }];
    state.set(start, "open");
    path.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { key: string; next: number };
      const deps = graph.get(top.key) ?? [];
      if (top.next >= deps.length) {
        state.set(top.key, "done");
        stack.pop();
        path.pop();
        continue;
      }
      const dep = deps[top.next++] as string;
      if (!graph.has(dep)) continue;
      const seen = state.get(dep);
      if (seen === "open") {
        const cycle = [...path.slice(path.indexOf(dep)), dep];
        const id = [...cycle.slice(0, -1)].sort().join("\u0000");
        if (!reported.has(id)) {
          reported.add(id);
          cycles.push(cycle);
        }
      } else if (seen === undefined) {
        state.set(dep, "open");
        path.push(dep);
        stack.push({ key: dep, next: 0 });
      }
    }
  }
  return cycles;
}

/** The cohorts of a project by name: one id, or the ids of several that share it. */
export function cohortIdsByName(cohorts: ReadonlyArray<{ id: number; name: string }>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const c of cohorts) out.set(c.name, [...(out.get(c.name) ?? []), c.id]);
  return out;
}

export type { Json };
