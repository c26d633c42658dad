/**
 * Live text as YAML text for the loader: every `${` becomes `$${` (a literal `${` when loaded), and a
 * kind's `Placeholder` becomes its `${NAME}` reference. Applied to every string of a pulled item. And
 * live keys the loader refuses (`__proto__`, `constructor`, `prototype`: a configuration never needs
 * them and an attacker might send them) are left out, so a pulled file always validates.
 */
import { FORBIDDEN_KEYS } from "../config/parse-types.js";
import { isPlainObject } from "../plan/values.js";
import { Placeholder } from "./kinds.js";

export function escapeLive(text: string): string {
  // A function: in a replacement string, "$$" would mean a single "$".
  return text.replaceAll("${", () => "$${");
}

/** `value` as pull writes it; the dotted paths of the keys left out are added to `leftOut`. */
export function escapeItem(value: unknown, leftOut: string[] = [], path = ""): unknown {
  if (value instanceof Placeholder) return `\${${value.variable}}`;
  if (typeof value === "string") return escapeLive(value);
  if (Array.isArray(value)) return value.map((item, i) => escapeItem(item, leftOut, `${path}${i}.`));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) leftOut.push(`${path}${key}`);
      else out[key] = escapeItem(item, leftOut, `${path}${key}.`);
    }
    return out;
  }
  return value;
}

/** How pull has `yaml` write text: a string that needs double quotes gets JSON's escapes (`\n`, `\u001b`). */
export const YAML_TEXT = { lineWidth: 0, doubleQuotedAsJSON: true } as const;

/** Text with control characters written as escapes (src/yaml-edit writes every value it puts in a file so). */
export { printableYaml } from "../yaml-edit/index.js";
