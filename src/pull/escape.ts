/**
 * Live text as YAML text for the loader: every `${` becomes `$${` (a literal `${` when loaded), and a
 * kind's `Placeholder` becomes its `${NAME}` reference. Applied to every string of a pulled item.
 */
import { isPlainObject } from "../plan/values.js";
import { Placeholder } from "./kinds.js";

export function escapeLive(text: string): string {
  // A function: in a replacement string, "$$" would mean a single "$".
  return text.replaceAll("${", () => "$${");
}

export function escapeItem(value: unknown): unknown {
  if (value instanceof Placeholder) return `\${${value.variable}}`;
  if (typeof value === "string") return escapeLive(value);
  if (Array.isArray(value)) return value.map(escapeItem);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = escapeItem(item);
    return out;
  }
  return value;
}
