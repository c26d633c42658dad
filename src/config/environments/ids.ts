/**
 * No ids in shared files (SPEC §9): an id is right for one project only, so a file that serves several
 * environments may not hold one: an `id:` pin, or any value a kind declares as one project's id (a
 * cohort by id, an insight by id, an integration by number). Each is an error at its line, before
 * anything is merged; pins belong in the environment's overlay, references go by name.
 */
import type { Diagnostics } from "../diagnostics.js";
import type { ConfigKind, EnvironmentRules } from "../kinds.js";
import type { ParsedFile } from "../parse-types.js";
import { childPointer, sourceOf, splitPointer } from "./document.js";

type Data = Record<string, unknown>;
type IdRule = NonNullable<EnvironmentRules["projectIds"]>[number];

/** Reports each project id in `file`, which serves `serves` (two environments or more). */
export function checkNoIds(
  file: ParsedFile,
  serves: readonly string[],
  kinds: readonly ConfigKind[],
  diags: Diagnostics,
): void {
  const data = file.data as Data;
  for (const kind of kinds) {
    const items = data[kind.key];
    const rules = kind.environments?.projectIds ?? [];
    if (!Array.isArray(items) || rules.length === 0) continue;
    items.forEach((item, i) => {
      for (const rule of rules) {
        for (const found of nodesAt(item, rule)) {
          const at = sourceOf(file, `/${kind.key}/${i}${found}`);
          const field = splitPointer(found).join(".");
          diags.error(
            at.file,
            at.line,
            at.column,
            `${field}: an id is right for one project only, and this file serves ${serves.join(", ")}: pin it in that environment's overlay (or refer by name)`,
          );
        }
      }
    });
  }
}

/** The pointers (relative to `item`) of the values `rule` names. */
function nodesAt(item: unknown, rule: IdRule): string[] {
  const found: string[] = [];
  const walk = (value: unknown, segments: readonly string[], pointer: string, parent: unknown) => {
    const [head, ...rest] = segments;
    if (head === undefined) {
      if (value === undefined || value === null) return;
      if (rule.numbers === true && typeof value !== "number") return;
      if (rule.where !== undefined) {
        if (parent === null || typeof parent !== "object") return;
        const holder = parent as Data;
        if (!Object.entries(rule.where).every(([k, v]) => holder[k] === v)) return;
      }
      found.push(pointer);
      return;
    }
    // `**`: any depth (a cohort's conditions nest), zero levels first.
    if (head === "**") walk(value, rest, pointer, parent);
    if (value === null || typeof value !== "object") return;
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value as Data);
    for (const [key, child] of entries) {
      if (head === "**") walk(child, segments, childPointer(pointer, key), value);
      else if (head === "*" || head === key) walk(child, rest, childPointer(pointer, key), value);
    }
  };
  walk(item, splitPointer(rule.path), "", undefined);
  return found;
}
