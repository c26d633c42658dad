/**
 * Counted nouns in human messages, so no line ever says "1 errors" or "2 file": one helper for every
 * layer (config, commands, render), with no imports of its own.
 */

/** `1 object`, `2 objects`: a count and its noun, singular or plural. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${plural(n, one, many)}`;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** The noun alone: `plural(1, "change")` is `change`, `plural(3, "change")` is `changes`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
