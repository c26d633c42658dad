/**
 * What `pull` writes for a PostHog model (./model.ts): its list as YAML items, the ids its values name
 * written as names where a name is the object's own, and the variables of the placeholders it wrote.
 */
import type { LiveObject } from "../../plan/types.js";
import { Placeholder, type PullContext } from "../../pull/kinds.js";
import type { FieldTable } from "./fields.js";
import type { Table } from "./table.js";

/**
 * What `pull` writes for an id another object's value names: the name, when no other object of that
 * kind holds it and it is not empty. Its own kind's from its list; a kind pulled together from the
 * registry's list of it (pulled or not); a kind the registry lacks from the model's `foreign` reader.
 * A kind whose names must be declared (a tile's insight) is named only when it is pulled too.
 */
export async function pullNames<T extends FieldTable>(
  own: string,
  live: readonly LiveObject[],
  foreign: Readonly<Record<string, readonly LiveObject[]>>,
  context: PullContext | undefined,
  table: Table<T>,
): Promise<(kind: string, id: number | string) => string | undefined> {
  // A name that must be declared (a tile's insight) is written only when its kind is pulled too.
  const declaredOnly = new Set(table.references.filter((s) => s.declaredOnly).map((s) => s.kind));
  const kinds = [...new Set(table.references.map((s) => s.kind))];
  const lists = new Map<string, readonly LiveObject[]>();
  for (const kind of kinds) {
    const elsewhere = declaredOnly.has(kind) && context?.kinds.includes(kind) !== true;
    const pulled = kind === own || elsewhere ? undefined : context?.live?.(kind);
    if (kind === own) lists.set(kind, [...live, ...(foreign[kind] ?? [])]);
    else if (pulled !== undefined) lists.set(kind, await pulled);
    else if (foreign[kind] !== undefined) lists.set(kind, foreign[kind]);
  }
  const unique = new Map<string, Map<string, string>>();
  for (const [kind, list] of lists) {
    const count = new Map<string, number>();
    for (const o of list) count.set(o.name ?? "", (count.get(o.name ?? "") ?? 0) + 1);
    const ids = new Map<string, string>();
    for (const o of list) {
      const name = o.name ?? "";
      if (name.trim() !== "" && count.get(name) === 1) ids.set(String(o.id), name);
    }
    unique.set(kind, ids);
  }
  return (kind, id) => unique.get(kind)?.get(String(id));
}

/** The variables of the `${NAME}` placeholders pulled items hold (encrypted payloads), in order. */
export function placeholders(items: readonly unknown[]): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (value instanceof Placeholder) out.push(value.variable);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(items);
  return out;
}
