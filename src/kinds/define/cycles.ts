/**
 * Reference cycles among one kind's declarations (the service refuses them: a flag that depends on
 * itself through others, a cohort inside itself): a `validate` error at the reference closing each.
 */
import type { ProjectProblem } from "../../config/kinds.js";
import type { Declared, DesiredProject } from "../../config/types.js";
import type { ReferenceSpec } from "./references.js";

const spaced = (kind: string) => kind.replaceAll("_", " ");

/**
 * The reference cycles among one kind's declarations in a project (the service refuses them: a flag
 * that depends on itself through others, a cohort inside itself), each reported once at the
 * reference that closes it.
 */
export function referenceCycles(
  project: DesiredProject,
  kind: string,
  words: { one: string; many: string },
  spec: ReferenceSpec,
): ProjectProblem[] {
  const declared = (project.objects[kind] ?? []).filter((d) => !d.deleted);
  const refsOf = (d: Declared) => (d.refs ?? []).filter((r) => r.kind === kind && r.name !== undefined);
  const graph = new Map(declared.map((d) => [d.name, refsOf(d).map((r) => r.name as string)]));
  const word = spec.word ?? spaced(kind);
  const holder = spec.holder ?? `${word} reference`;
  const verb = spec.verb ?? { one: "names", many: "name" };
  const problems: ProjectProblem[] = [];
  for (const cycle of dependencyCycles(graph)) {
    const [first, second] = cycle;
    const object = declared.find((d) => d.name === first);
    const at = object && (refsOf(object).find((r) => r.name === second)?.source ?? object.source);
    if (at === undefined) continue;
    problems.push({
      source: at,
      message:
        cycle.length === 2
          ? `${words.one} "${first}" ${verb.one} itself: the service refuses a ${holder} on the ${word} itself`
          : `${words.many} ${verb.many} each other in a cycle (${cycle.join(" → ")}): the service refuses it; remove one of the ${holder}s`,
    });
  }
  return problems;
}

/**
 * The cycles of a graph (`graph`: name → names it refers to), each reported once as the path that
 * closes it (`a → b → a`), starting from the first name in `graph`'s order that lies on it.
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
