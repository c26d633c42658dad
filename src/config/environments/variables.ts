/**
 * Variables and secrets per environment (SPEC §9), applied to an environment's merged document before
 * it is validated. In a value that is not secret, `${NAME}` reads the environment's `variables:`: a
 * value that is exactly `${NAME}` takes the variable's type (a number stays a number, and is validated
 * as one, with messages at the reference naming the variable); elsewhere the variable's text is put in
 * the string. A variable the environment lacks is an error for that environment, at the reference. A
 * secret reference `${NAME}` is rewritten to read the process variable the environment's `secrets:`
 * maps NAME to, so everything after (the secret's description, apply's lookup) reads that one.
 */
import type { Diagnostics } from "../diagnostics.js";
import { scan, secretReference, substitute } from "../interpolate.js";
import type { ConfigKind } from "../kinds.js";
import { sourceAt } from "../located.js";
import { childPointer, type MergedDocument } from "./document.js";
import type { EnvironmentEntry } from "./types.js";

type Data = Record<string, unknown>;

export function applyVariables(
  doc: MergedDocument,
  entry: EnvironmentEntry,
  kinds: readonly ConfigKind[],
  declaration: string,
  diags: Diagnostics,
): void {
  const variable = (name: string) => entry.sources[`variables/${name}`] ?? entry.source;
  const lookup = (name: string) => {
    const value = entry.variables[name];
    return value === undefined ? undefined : String(value);
  };
  for (const kind of kinds) {
    const items = doc.data[kind.key];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (item === null || typeof item !== "object" || Array.isArray(item)) return;
      const secrets = new Set(kind.secretPointers?.(item) ?? []);
      const identity = (item as Data)[kind.identityKey ?? "name"];
      const owner = `${kind.words.one} "${String(identity)}"`;
      const base = `/${kind.key}/${i}`;
      const visit = (value: unknown, rel: string, set: (v: unknown) => void): void => {
        if (Array.isArray(value)) {
          value.forEach((v, j) => {
            visit(v, childPointer(rel, j), (next) => {
              value[j] = next;
            });
          });
        } else if (value !== null && typeof value === "object") {
          for (const [key, v] of Object.entries(value)) {
            visit(v, childPointer(rel, key), (next) => {
              (value as Data)[key] = next;
            });
          }
        } else if (typeof value === "string" && value.includes("${")) {
          const pointer = base + rel;
          if (secrets.has(rel)) secret(value, pointer, set);
          else plain(value, pointer, rel, set);
        }
      };
      const secret = (value: string, pointer: string, set: (v: unknown) => void) => {
        const name = secretReference(value);
        const mapped = name === undefined ? undefined : entry.secrets[name];
        if (name === undefined || mapped === undefined) return;
        set(`\${${mapped}}`);
        doc.marks.push({
          pointer,
          how: "secret",
          source: entry.sources[`secrets/${name}`] ?? entry.source,
          detail: name,
        });
      };
      const plain = (value: string, pointer: string, rel: string, set: (v: unknown) => void) => {
        const scanned = scan(value);
        if (!scanned.ok || scanned.references.length === 0) return;
        const field = rel.slice(1).split("/").join(".");
        const [only] = scanned.references;
        const whole = scanned.references.length === 1 && only?.start === 0 && only.end === value.length;
        const typed = whole && only ? entry.variables[only.name] : undefined;
        if (only && typed !== undefined && typeof typed !== "string") {
          set(typed);
          const at = variable(only.name);
          doc.setNote(
            pointer,
            `from \${${only.name}} = ${String(typed)} of environment ${entry.name}, ${at.file}:${at.line}:${at.column}`,
          );
          doc.marks.push({ pointer, how: "variable", source: at, detail: only.name });
          return;
        }
        const result = substitute(value, lookup, true);
        if (!result.ok) return;
        if (only && whole && typed !== undefined) {
          const at = variable(only.name);
          doc.setNote(
            pointer,
            `from \${${only.name}} = ${JSON.stringify(typed)} of environment ${entry.name}, ${at.file}:${at.line}:${at.column}`,
          );
        }
        for (const name of new Set(result.missing)) {
          const at = sourceAt(doc, pointer);
          diags.error(
            at.file,
            at.line,
            at.column,
            `\${${name}} in ${field} of ${owner}: environment ${entry.name} has no variable ${name}; add it to environments.${entry.name}.variables in ${declaration} (a file serving environments reads only their variables)`,
          );
        }
        set(result.value);
        const used = [...new Set(result.used)];
        if (used.length > 0) {
          doc.marks.push({
            pointer,
            how: "variable",
            source: variable(used[0] as string),
            detail: used.join(", "),
          });
        }
      };
      visit(item, "", () => {});
    });
  }
}
