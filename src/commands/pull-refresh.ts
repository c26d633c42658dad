/**
 * `posthog-gitops pull --refresh [PATH...]`: the files' declared objects get the live values of the
 * fields that differ (what a plan would change back), edited in place so comments, order,
 * `variables:`, `${NAME}` references and unrelated keys stay as written (src/pull/refresh.ts). Objects
 * the files declare that are not live, and fields written with a reference, are left alone and said so.
 */

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { withFile, writeOutput } from "../files.js";
import type { Io } from "../io.js";
import { KINDS, type Kind } from "../kinds/index.js";
import type { Action, LiveObject } from "../plan/types.js";
import { getPath, isPlainObject } from "../plan/values.js";
import { escapeItem } from "../pull/escape.js";
import type { PullContext, Pulled } from "../pull/kinds.js";
import { type FieldRefresh, refreshText } from "../pull/refresh.js";
import { readAndPlan } from "../read/make-plan.js";
import { secretInValue } from "../scrub.js";
import type { ServiceClient } from "../service/index.js";
import { flat } from "../text.js";
import { count } from "../words.js";
import { readConfig } from "./config.js";
import { type ConnectionFlags, withConnection } from "./connect.js";
import { buildOptions, failOnErrors } from "./reconcile.js";

/** The fields of a declared item an action says differ from live: its verb's, e.g. `sharing.enabled`. */
function fieldsOf(kind: Kind, action: Action): string[][] {
  return kind.verbs.find((v) => v.name === action.action)?.refreshes?.(action) ?? [];
}

/** One declared field whose live value differs, with that value as `pull` writes it (not yet escaped). */
export interface LiveField {
  kind: Kind;
  action: Action;
  /** The field inside the declared item: `["filters", "groups"]`. */
  path: string[];
  /** The live value (a `Placeholder` for a secret; live `${` as the service sent it). */
  value: unknown;
  /** `feature flag "new-checkout"`. */
  owner: string;
}

/**
 * The declared fields a plan's actions say differ from live (each verb's `refreshes`), with their live
 * values from each kind's `pull` (read once per kind, in `pulled`), and the declared objects that are
 * not live. What `pull --refresh` writes back, and what `promote` carries into the shared files.
 */
export async function differingFields(
  actions: readonly Action[],
  client: ServiceClient,
  pulled: PulledItems,
): Promise<{ fields: LiveField[]; absent: string[] }> {
  const fields: LiveField[] = [];
  const absent: string[] = [];
  for (const action of actions) {
    const { object } = action;
    const kind = KINDS.find((k) => k.name === object.kind) as Kind;
    const owner = `${kind.words.one} "${flat(object.name)}"`;
    if (object.source === undefined) continue;
    if (kind.verbs.some((v) => v.name === action.action && v.absentBefore)) {
      absent.push(`${owner} is not live (apply would ${action.action} it)`);
      continue;
    }
    const paths = fieldsOf(kind, action);
    if (paths.length === 0 || object.id === undefined) continue;
    const item = (await pulled.items(kind, client, object.project)).get(object.id);
    if (!item) continue;
    for (const path of paths) {
      const value = valueAt(item, path);
      if (value !== undefined) fields.push({ kind, action, path, value, owner });
    }
  }
  return { fields, absent };
}

export async function refresh(paths: readonly string[], flags: ConnectionFlags, io: Io): Promise<number> {
  const desired = await readConfig(paths, flags, io, "plan");
  const perFile = new Map<string, FieldRefresh[]>();
  let absent: string[] = [];
  await withConnection(flags, io, async ({ client, progress, io: out }) => {
    progress.step("reading live state");
    const made = await readAndPlan(KINDS, client, desired.projects, buildOptions({ args: [...paths] }, io));
    failOnErrors(made.errors, out);
    const found = await differingFields(made.plan.actions, client, new PulledItems());
    absent = found.absent;
    for (const { action, path, value: raw, owner } of found.fields) {
      const source = action.object.source as NonNullable<Action["object"]["source"]>;
      const value = escapeItem(raw);
      // Into a file the user wrote, and read again by the next plan: a value that is a secret's value
      // is left out (the file keeps what it says), never written as the secret or as a placeholder.
      const secret = secretInValue(io, value);
      if (secret !== undefined) {
        io.stderr.write(
          `kept ${owner} ${path.join(".")}: its live value is ${secret}, which is never written to a file\n`,
        );
        continue;
      }
      const list = perFile.get(source.file) ?? [];
      list.push({
        key: (KINDS.find((k) => k.name === action.object.kind) as Kind).key,
        line: source.line,
        column: source.column,
        path,
        value,
        owner,
      });
      perFile.set(source.file, list);
    }
  });
  let changedFiles = 0;
  for (const [file, fields] of perFile) {
    const path = resolve(io.cwd, file);
    const text = await withFile("read", file, () => readFile(path, "utf8"));
    const refreshed = refreshText(text, dedupe(fields));
    for (const kept of refreshed.kept) io.stderr.write(`kept ${kept}\n`);
    if (refreshed.changed.length === 0) continue;
    // The user's own text, as it was, with only the live values put in (none holds a secret's value).
    await writeOutput(io, "write", file, path, refreshed.text, { scrubbed: true });
    changedFiles += 1;
    io.stderr.write(
      `refreshed ${file}: ${count(refreshed.changed.length, "field")} (${refreshed.changed.join("; ")})\n`,
    );
  }
  for (const line of absent) io.stderr.write(`${line}\n`);
  if (changedFiles === 0) io.stderr.write("Nothing to refresh: the files declare what is live.\n");
  return 0;
}

/**
 * Each kind's pulled items of a project by id, as `pull` writes them (references to other kinds by
 * name, as a full pull names them; secrets as placeholders): each kind pulled at most once.
 */
export class PulledItems {
  readonly #cache = new Map<string, Promise<Pulled>>();
  readonly #lists = new Map<string, Promise<LiveObject[]>>();

  pulled(kind: Kind, client: ServiceClient, project: number): Promise<Pulled> {
    const key = `${project}/${kind.name}`;
    let pulled = this.#cache.get(key);
    if (pulled === undefined) {
      // The files name objects of other kinds as a full pull would (a tile's insight by its name),
      // from each kind's list, read once.
      const context: PullContext = {
        kinds: KINDS.map((k) => k.name),
        live: (name) => {
          const other = KINDS.find((k) => k.name === name);
          if (other?.listLive === undefined) return undefined;
          const at = `${project}/${name}`;
          let list = this.#lists.get(at);
          if (list === undefined) {
            list = other.listLive(client, project);
            this.#lists.set(at, list);
          }
          return list;
        },
      };
      pulled = kind.pull(client, project, context);
      this.#cache.set(key, pulled);
    }
    return pulled;
  }

  async items(
    kind: Kind,
    client: ServiceClient,
    project: number,
  ): Promise<Map<number | string, Record<string, unknown>>> {
    const pulled = await this.pulled(kind, client, project);
    return new Map(pulled.items.map((item) => [item.id as number | string, item]));
  }
}

/** The pulled value at a field's path; an integration id may be written `integration` or `integration_id`. */
function valueAt(item: Record<string, unknown>, path: readonly string[]): unknown {
  const value = getPath(item, path.join("."));
  if (value !== undefined) return value;
  const last = path.at(-1);
  const alias =
    last === "integration_id" ? "integration" : last === "integration" ? "integration_id" : undefined;
  if (alias === undefined) return undefined;
  const parent = getPath(item, path.slice(0, -1).join("."));
  return isPlainObject(parent) ? parent[alias] : undefined;
}

function dedupe(fields: readonly FieldRefresh[]): FieldRefresh[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.line}:${f.column}:${f.path.join(".")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
