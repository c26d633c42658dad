/**
 * The `environments:` declaration (SPEC §9): one file names every environment, each a project on its
 * host with its key, variables, secrets, promotion order and safety settings. The schema has checked
 * each entry's shape; the rules here span entries or name what the schema cannot: `promote_from`
 * names another environment and never loops, no two environments are one project on one host, and a
 * variable never has a name that looks like a credential (such names stay out of plans, as in §2).
 */

import type { Diagnostics } from "../diagnostics.js";
import { isCredentialName, isToolVariable } from "../interpolate.js";
import type { ParsedFile } from "../parse-types.js";
import { didYouMean } from "../suggest.js";
import { childPointer, sourceOf } from "./document.js";
import type { EnvironmentEntry, VariableValue } from "./types.js";

interface EntryInput {
  project: number;
  host?: string;
  api_key_env?: string;
  promote_from?: string;
  protect?: boolean;
  limits?: { changes?: number; deletes?: number };
  variables?: Record<string, VariableValue>;
  secrets?: Record<string, string>;
}

/**
 * The entries of a schema-checked declaration, in file order; `broken` names the entries with a schema
 * error (left out: what they would give is unknown).
 */
export function readDeclaration(
  file: ParsedFile,
  broken: ReadonlySet<string>,
  diags: Diagnostics,
): EnvironmentEntry[] {
  const declared = (file.data as { environments: Record<string, EntryInput> }).environments;
  const entries: EnvironmentEntry[] = [];
  for (const [name, input] of Object.entries(declared)) {
    if (broken.has(name) || input === null || typeof input !== "object") continue;
    const base = childPointer("/environments", name);
    const at = (key: string, which: "key" | "value" = "value") => sourceOf(file, `${base}/${key}`, which);
    const sources: Record<string, ReturnType<typeof at>> = {};
    for (const key of Object.keys(input)) sources[key] = at(key);
    const variables: Record<string, VariableValue> = {};
    for (const [variable, value] of Object.entries(input.variables ?? {})) {
      const pointer = `variables/${variable.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      sources[pointer] = at(pointer);
      if (isCredentialName(variable)) {
        const where = at(pointer, "key");
        diags.error(
          where.file,
          where.line,
          where.column,
          `variable ${variable} of environment ${name} has a name that looks like a credential (or is this tool's own): such names never go into a non-secret value; rename it, or make it a secret (secrets:)`,
        );
        continue;
      }
      variables[variable] = value;
    }
    const secrets: Record<string, string> = {};
    for (const [secret, variable] of Object.entries(input.secrets ?? {})) {
      const pointer = `secrets/${secret.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      sources[pointer] = at(pointer);
      if (isToolVariable(secret) || isToolVariable(variable)) {
        const where = at(pointer, isToolVariable(secret) ? "key" : "value");
        diags.error(
          where.file,
          where.line,
          where.column,
          `secrets of environment ${name}: this tool's own variables (POSTHOG_*) never go into a field`,
        );
        continue;
      }
      secrets[secret] = variable;
    }
    entries.push({
      name,
      project: input.project,
      ...(input.host !== undefined ? { host: input.host.replace(/\/$/, "") } : {}),
      ...(input.api_key_env !== undefined ? { apiKeyEnv: input.api_key_env } : {}),
      ...(input.promote_from !== undefined ? { promoteFrom: input.promote_from } : {}),
      protect: input.protect === true,
      ...(input.limits !== undefined ? { limits: { ...input.limits } } : {}),
      variables,
      secrets,
      source: sourceOf(file, base, "key"),
      sources,
    });
  }
  checkPromotion(entries, diags);
  checkProjects(entries, diags);
  return entries;
}

/** `promote_from` names another environment, and following it never comes back. */
function checkPromotion(entries: readonly EnvironmentEntry[], diags: Diagnostics): void {
  const byName = new Map(entries.map((e) => [e.name, e]));
  for (const entry of entries) {
    const from = entry.promoteFrom;
    if (from === undefined) continue;
    const at = entry.sources.promote_from ?? entry.source;
    if (from === entry.name) {
      diags.error(at.file, at.line, at.column, `environment ${entry.name} cannot be promoted from itself`);
      continue;
    }
    if (!byName.has(from)) {
      const hint = didYouMean(from, byName.keys());
      diags.error(
        at.file,
        at.line,
        at.column,
        `promote_from of environment ${entry.name} names ${from}, which is not declared${hint}`,
      );
      continue;
    }
    // A loop: following promote_from from here comes back here.
    const seen = new Set([entry.name]);
    for (let next = byName.get(from); next?.promoteFrom !== undefined; next = byName.get(next.promoteFrom)) {
      if (next.promoteFrom === entry.name) {
        diags.error(
          at.file,
          at.line,
          at.column,
          `promote_from makes a loop through environment ${entry.name}: promotion needs a first environment`,
        );
        break;
      }
      if (seen.has(next.name)) break;
      seen.add(next.name);
    }
  }
}

/** Two environments that are one project on one host would plan and apply the same objects twice. */
function checkProjects(entries: readonly EnvironmentEntry[], diags: Diagnostics): void {
  const seen = new Map<string, EnvironmentEntry>();
  for (const entry of entries) {
    const key = `${entry.host ?? ""}\0${entry.project}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, entry);
      continue;
    }
    const at = entry.sources.project ?? entry.source;
    diags.error(
      at.file,
      at.line,
      at.column,
      `environments ${first.name} and ${entry.name} are both project ${entry.project}${entry.host ? ` on ${entry.host}` : ""}: an environment is one project`,
    );
  }
}

/**
 * The environments in the order `apply --all` applies them: each after the one it is promoted from,
 * otherwise in declaration order.
 */
export function promotionOrder<E extends Pick<EnvironmentEntry, "name" | "promoteFrom">>(
  entries: readonly E[],
): E[] {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const ordered: E[] = [];
  const placed = new Set<string>();
  const place = (entry: E, depth: number) => {
    if (placed.has(entry.name) || depth > entries.length) return;
    const from = entry.promoteFrom === undefined ? undefined : byName.get(entry.promoteFrom);
    if (from !== undefined) place(from, depth + 1);
    if (placed.has(entry.name)) return;
    placed.add(entry.name);
    ordered.push(entry);
  };
  for (const entry of entries) place(entry, 0);
  return ordered;
}
