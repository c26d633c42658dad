/**
 * `posthog-gitops promote SRC [DST] [PATH...] [--write] [--adopt]` (SPEC §9 "Promotion"): carries the
 * edits made live in environment SRC (typically in its UI) into the shared files, and shows what DST
 * (default: the environment whose `promote_from` is SRC) would get from them. Reads only: every request
 * is a GET, with each environment's own key.
 *
 * 1. SRC's merged declarations are planned against SRC's project; each field a plan action says
 *    differs is read back as `pull` writes it (`differingFields`, what `pull --refresh` uses).
 * 2. src/promote/edits.ts lays each live value over the merged one: what SRC's overlay, variables or
 *    secret mappings gave stays (listed as kept), the rest becomes an edit of the shared file that
 *    wrote it, made by src/yaml-edit (comments, order and style kept). With `--adopt`, the live objects
 *    no file declares join the shared files too (src/promote/adopt.ts), never with an id.
 * 3. The files with those edits are loaded again in memory, and DST is planned from them, with the
 *    warnings of SPEC §9 (group types, static cohorts, integrations and members DST lacks).
 *
 * Shown as a unified diff of the shared files (text, markdown for a pull request's body, JSON:
 * schemas/promote.schema.json) and written with `--write`. Exit 0: nothing to promote; with
 * `--detailed-exitcode` 2: edits to promote; 1: an error (DST could not be planned among them).
 */
import { existsSync, lstatSync } from "node:fs";
import { posix, resolve } from "node:path";
import { parse } from "yaml";
import { Diagnostics } from "../config/diagnostics.js";
import type { LoadResult } from "../config/index.js";
import { countBySeverity, formatDiagnostic } from "../config/index.js";
import { scan } from "../config/interpolate.js";
import type { EnvironmentConfig } from "../config/load-types.js";
import { readSources, type SourceFile } from "../config/read.js";
import { UserError } from "../errors.js";
import { writeOutput } from "../files.js";
import type { Io } from "../io.js";
import { KINDS, type Kind } from "../kinds/index.js";
import type { ObjectRef } from "../plan/types.js";
import { type Adoption, adopt } from "../promote/adopt.js";
import { unifiedFileDiff } from "../promote/diff.js";
import { type FieldPromotion, type Kept, promotionEdits } from "../promote/edits.js";
import { type EnvironmentFacts, needsOf, nodesAt, preflightWarnings } from "../promote/preflight.js";
import { PROMOTE_FORMAT_VERSION, type PromotedField, type PromoteResult } from "../promote/result.js";
import { readAndPlan } from "../read/make-plan.js";
import { colorEnabled } from "../render/index.js";
import { renderPromote } from "../render/promote.js";
import { scrubValue, secretInValue } from "../scrub.js";
import { count } from "../words.js";
import { editYaml, type YamlEdit } from "../yaml-edit/index.js";
import { readConfig, shownDiagnostics } from "./config.js";
import type { ConnectionFlags } from "./connect.js";
import { readFacts, wantedBy } from "./environment-facts.js";
import { configurationError, environmentConnection, selectEnvironments } from "./environments.js";
import { planEnvironment } from "./plan-environments.js";
import { progressFor } from "./progress.js";
import { schemaLocation } from "./pull.js";
import { differingFields, PulledItems } from "./pull-refresh.js";
import { buildOptions, failOnErrors } from "./reconcile.js";

export interface PromoteFlags extends ConnectionFlags {
  /** SRC, then DST unless it is a file or folder, then the paths. */
  args?: string[];
  write?: boolean;
  adopt?: boolean;
  detailedExitcode?: boolean;
  format?: "text" | "markdown" | "json";
  /** Also save the JSON document (schemas/promote.schema.json) to this file. */
  out?: string;
}

export async function run(flags: PromoteFlags, io: Io): Promise<number> {
  const [sourceName, ...rest] = flags.args ?? [];
  if (sourceName === undefined || sourceName === "") {
    throw new UserError("promote needs the environment to promote from: promote SRC [DST] [PATH...]");
  }
  // DST is the second argument unless a file or folder of that name exists (then it is a path).
  const second = rest[0];
  const named = second !== undefined && !existsSync(resolve(io.cwd, second)) ? second : undefined;
  const paths = named === undefined ? rest : rest.slice(1);
  const sources = await readSourceFiles(paths, io);
  const desired = await readConfig({ files: sources }, flags, io, "plan");
  const { source, destination } = chooseEnvironments(desired, sourceName, named, flags);
  const invalid = configurationError(source);
  if (invalid !== undefined) throw invalid;

  const progress = progressFor(io, { quiet: flags.quiet === true });
  const log = (line: string) => progress.io.stderr.write(`${line}\n`);
  const connection = environmentConnection(source, flags, progress.io, log, progress);
  let found: SourceReading;
  try {
    progress.step(`reading live state of ${source.name}`);
    found = await readSource(source, destination, connection.client, sources, flags, progress.io);
  } finally {
    progress.stop();
    await connection.client.close();
  }
  // The files as they would be: the destination is planned from them.
  const edited = sources.map((s) => ({ path: s.path, text: found.texts.get(s.path) ?? s.text }));
  for (const [path, text] of found.adoption.created) edited.push({ path, text });
  const after = await loadEdited(edited, flags, io);
  // Edits that make the files invalid (an adopted object the schema refuses) are shown, never written.
  const errors = (loaded: LoadResult) => countBySeverity(loaded.diagnostics).error;
  const broken = errors(after) > errors(desired);
  const target = after.environments?.list.find((e) => e.name === destination.name);
  const planned = target === undefined ? undefined : await planDestination(target, found, flags, io);
  const result: PromoteResult = {
    format_version: PROMOTE_FORMAT_VERSION,
    source: { name: source.name, project: source.entry.project, host: connection.host },
    destination: {
      name: destination.name,
      project: destination.entry.project,
      ...(planned?.host !== undefined ? { host: planned.host } : {}),
    },
    written: flags.write === true && !broken,
    files: [...found.changed].map((path) => {
      const before = sources.find((s) => s.path === path)?.text;
      const text = found.texts.get(path) ?? found.adoption.created.get(path) ?? "";
      return { path, created: before === undefined, diff: unifiedFileDiff(path, before, text) };
    }),
    promoted: found.promoted,
    kept: found.kept,
    adopted: found.adoption.adopted,
    left_out: found.adoption.leftOut,
    variables: found.adoption.variables,
    warnings: planned?.warnings ?? [],
    ...(planned?.plan !== undefined ? { plan: planned.plan } : {}),
    ...(broken
      ? {
          error: `the edited files have ${count(errors(after) - errors(desired), "error")} the files did not have (above); nothing was written`,
        }
      : planned?.error !== undefined
        ? { error: planned.error }
        : target === undefined
          ? { error: `the edited files do not load for environment ${destination.name}` }
          : {}),
    ...(planned?.refusal !== undefined ? { refusal: planned.refusal } : {}),
  };
  if (result.written) {
    // All or nothing: a link (or, for a new file, anything) at any path refuses every write.
    for (const path of found.changed) {
      const taken = lstatSync(resolve(io.cwd, path), { throwIfNoEntry: false });
      if (taken?.isSymbolicLink() === true || (taken !== undefined && found.adoption.created.has(path))) {
        throw new UserError(
          `cannot write ${path}: ${taken.isSymbolicLink() ? "it is a symbolic link, and posthog-gitops never writes through one" : "it already exists"}; nothing was written`,
          "file_error",
        );
      }
    }
    for (const path of found.changed) {
      const text = found.texts.get(path) ?? found.adoption.created.get(path) ?? "";
      const file = resolve(io.cwd, path);
      // The files' own text with live values put in; none holds a secret's value (checked above).
      await writeOutput(io, "write", path, file, text, {
        scrubbed: true,
        ...(found.adoption.created.has(path) ? { create: true } : {}),
      });
    }
  }
  const shown = scrubValue(io, result);
  if (flags.out !== undefined) {
    // Relative to the working folder, like the configuration paths; scrubbed above.
    await writeOutput(
      io,
      "write the result to",
      flags.out,
      resolve(io.cwd, flags.out),
      renderPromote(shown, "json", { kinds: KINDS, color: false }),
      { scrubbed: true },
    );
  }
  const format = flags.format ?? "text";
  io.stdout.write(
    renderPromote(shown, format, {
      kinds: KINDS,
      color: format === "text" && colorEnabled(io.env, io.stdout.isTTY === true),
    }),
  );
  for (const line of statusLines(shown, flags)) io.stderr.write(`${line}\n`);
  if (shown.error !== undefined) return 1;
  return flags.detailedExitcode === true && shown.files.length > 0 ? 2 : 0;
}

/** The files as `loadConfig` reads them, read once: promote edits this text and loads it again. */
async function readSourceFiles(paths: readonly string[], io: Io): Promise<SourceFile[]> {
  const diags = new Diagnostics();
  const sources = await readSources(paths, io.cwd, diags);
  const problems = diags.sorted();
  for (const d of problems) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (problems.some((d) => d.severity === "error")) {
    throw new UserError("the configuration cannot be read; nothing was sent", "invalid_config");
  }
  return sources;
}

function chooseEnvironments(
  desired: LoadResult,
  sourceName: string,
  destinationName: string | undefined,
  flags: PromoteFlags,
): { source: EnvironmentConfig; destination: EnvironmentConfig } {
  const environments = desired.environments;
  if (environments === undefined) {
    throw new UserError(
      "promote carries edits from one environment to another: the files declare no environments (an environments: mapping in one file)",
    );
  }
  selectEnvironments(desired, { ...flags, env: [] });
  const names = environments.list.map((e) => e.name);
  const find = (name: string) => {
    const found = environments.list.find((e) => e.name === name);
    if (found === undefined)
      throw new UserError(`${name}: no such environment; the files declare ${names.join(", ")}`);
    return found;
  };
  const source = find(sourceName);
  let destination: EnvironmentConfig;
  if (destinationName !== undefined) {
    destination = find(destinationName);
  } else {
    const next = environments.list.filter((e) => e.entry.promoteFrom === source.name);
    if (next.length !== 1) {
      throw new UserError(
        next.length === 0
          ? `no environment is promoted from ${source.name} (promote_from: ${source.name}): name the one to plan, promote ${source.name} DST`
          : `environments ${next.map((e) => e.name).join(" and ")} are promoted from ${source.name}: name the one to plan, promote ${source.name} DST`,
      );
    }
    destination = next[0] as EnvironmentConfig;
  }
  if (destination.name === source.name) {
    throw new UserError(
      `promote ${source.name} ${destination.name}: an environment is not promoted to itself`,
    );
  }
  return { source, destination };
}

/** What reading the source gave: the files' new texts, what changed, what stays, and its facts. */
interface SourceReading {
  sourceName: string;
  texts: Map<string, string>;
  /** Paths of the files the promotion changes or creates, in load order. */
  changed: Set<string>;
  promoted: PromotedField[];
  kept: Kept[];
  adoption: Adoption;
  facts: EnvironmentFacts;
  notes: string[];
}

async function readSource(
  source: EnvironmentConfig,
  destination: EnvironmentConfig,
  client: Parameters<typeof differingFields>[1],
  sources: readonly SourceFile[],
  flags: PromoteFlags,
  io: Io,
): Promise<SourceReading> {
  const options = buildOptions({ args: [] }, io);
  if (flags.adopt === true) options.undeclared = true;
  const made = await readAndPlan(KINDS, client, source.config.projects, options);
  failOnErrors(made.errors, io, source.name);
  const pulled = new PulledItems();
  const { fields } = await differingFields(made.plan.actions, client, pulled);
  // An edit goes to a shared file both environments read; one only the source reads stays as it is.
  const shared = new Set(source.shared.filter((path) => destination.shared.includes(path)));
  const kept: Kept[] = [];
  const promotions: FieldPromotion[] = [];
  for (const field of fields) {
    const item = mergedItem(source, field.kind, field.action.object.source);
    if (item === undefined) continue;
    const byId = idIn(field.kind, field.value, field.path);
    if (byId !== undefined) {
      kept.push({ owner: field.owner, field: field.path.join("."), why: byId });
      continue;
    }
    // Into files people own, read again by every environment: a value holding a secret's value is
    // never written (the file keeps what it says).
    const secret = secretInValue(io, field.value);
    if (secret !== undefined) {
      kept.push({
        owner: field.owner,
        field: field.path.join("."),
        why: `its live value holds ${secret}, which is never written to a file`,
      });
      continue;
    }
    promotions.push({ item, path: field.path, live: field.value, owner: field.owner });
  }
  const edits = promotionEdits(source.document, promotions, shared, (file) =>
    source.shared.includes(file)
      ? `declared in ${file}, which ${destination.name} does not read: change it there by hand`
      : `declared in ${source.name}'s own files`,
  );
  kept.push(...edits.kept);
  const texts = new Map<string, string>();
  const changed = new Set<string>();
  const promoted: PromotedField[] = [];
  const byPath = new Map(sources.map((s) => [s.path, s.text]));
  const adoption: Adoption =
    flags.adopt === true
      ? await adoptUndeclared(made.plan.undeclared ?? [], source, destination, client, pulled, sources, io)
      : { edits: new Map(), created: new Map(), adopted: [], leftOut: [], variables: [] };
  const files = new Set([...edits.files.keys(), ...adoption.edits.keys()]);
  for (const path of files) {
    const promotedHere = edits.files.get(path) ?? [];
    const all: YamlEdit[] = [
      ...promotedHere.map((e) => ({ set: e.set, value: e.value })),
      ...(adoption.edits.get(path) ?? []),
    ];
    const text = byPath.get(path) ?? "";
    const result = editYaml(text, all, { protect: holdsReference });
    result.outcomes.forEach((outcome, i) => {
      const edit = promotedHere[i];
      if (edit === undefined) {
        if (outcome.status === "refused") {
          adoption.leftOut.push(
            ...adoption.adopted
              .filter((a) => a.file === path)
              .map((a) => ({
                kind: a.kind,
                name: a.name,
                why: `${path} could not take it: ${outcome.reason ?? "refused"}`,
              })),
          );
          adoption.adopted = adoption.adopted.filter((a) => a.file !== path);
        }
        return;
      }
      if (outcome.status === "changed") promoted.push({ owner: edit.owner, field: edit.field, file: path });
      else if (outcome.status === "refused") {
        kept.push({
          owner: edit.owner,
          field: edit.field,
          why: outcome.reason?.endsWith("which is kept as written")
            ? `${path} writes it with a \${NAME} reference, kept as it is`
            : `${path} could not take it: ${outcome.reason ?? "refused"}`,
        });
      }
    });
    if (result.text !== text) {
      texts.set(path, result.text);
      changed.add(path);
    }
  }
  for (const path of adoption.created.keys()) changed.add(path);
  // SPEC §9's warnings need the source's group types when the destination's shared declarations
  // aggregate by an index; its static cohorts come from the read above.
  const wanted = wantedBy(needsOf(destination, KINDS));
  const read = await readFacts(client, source.entry.project, made.live, {
    groupTypes: wanted.groupTypes,
    integrations: false,
    members: false,
  });
  return {
    sourceName: source.name,
    texts,
    changed,
    promoted,
    kept,
    adoption,
    facts: read.facts,
    notes: read.notes,
  };
}

/** A string written with a `${NAME}` reference: never rewritten by a promotion. */
function holdsReference(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const scanned = scan(value);
  return scanned.ok && scanned.references.length > 0;
}

/** The pointer of the merged declaration declared at `source` (`/feature_flags/1`). */
function mergedItem(
  environment: EnvironmentConfig,
  kind: Kind,
  source: ObjectRef["source"],
): string | undefined {
  if (source === undefined) return undefined;
  const items = environment.document.data[kind.key];
  if (!Array.isArray(items)) return undefined;
  for (let i = 0; i < items.length; i++) {
    const at = environment.document.origin(`/${kind.key}/${i}`, "value");
    if (at?.file === source.file && at.line === source.line && at.column === source.column)
      return `/${kind.key}/${i}`;
  }
  return undefined;
}

/** Why a live value cannot go into a shared file: it names another object by id. */
function idIn(kind: Kind, value: unknown, path: readonly string[]): string | undefined {
  const item: Record<string, unknown> = {};
  let node: Record<string, unknown> = item;
  path.forEach((segment, i) => {
    if (i === path.length - 1) node[segment] = value;
    else {
      const next: Record<string, unknown> = {};
      node[segment] = next;
      node = next;
    }
  });
  for (const rule of kind.environments?.projectIds ?? []) {
    for (const found of nodesAt(item, rule)) {
      if (rule.numbers === true && typeof found.value !== "number") continue;
      return `its live value names another object by id (${JSON.stringify(found.value)} at ${found.pointer.slice(1).replaceAll("/", ".")}), which is right for one project only: name it in the shared file by hand`;
    }
  }
  return undefined;
}

/** `--adopt`: the source's undeclared live objects, into the shared files both environments read. */
async function adoptUndeclared(
  undeclared: readonly ObjectRef[],
  source: EnvironmentConfig,
  destination: EnvironmentConfig,
  client: Parameters<typeof differingFields>[1],
  pulled: PulledItems,
  sources: readonly SourceFile[],
  io: Io,
): Promise<Adoption> {
  // What the service makes by itself is known from the objects it made it for (any kind's).
  // (only kinds the files list: reading flags counts as flag usage to the service).
  const manages = new Set(source.config.projects.flatMap((p) => p.manages));
  const kinds = KINDS.filter(
    (k) => manages.has(k.name) && (undeclared.some((r) => r.kind === k.name) || k.generated !== undefined),
  );
  const items = new Map<string, Record<string, unknown>[]>();
  for (const kind of kinds) {
    items.set(kind.name, (await pulled.pulled(kind, client, source.entry.project)).items);
  }
  const data = new Map(sources.map((s) => [s.path, parseQuietly(s.text)]));
  const both = source.shared.filter((path) => destination.shared.includes(path));
  const folder = posix.dirname(both[0] ?? source.shared[0] ?? "posthog/shared/x.yaml");
  return adopt({
    kinds,
    undeclared,
    pulled: items,
    targets: both.map((path) => ({
      path,
      data: data.get(path),
      all: (data.get(path) as { environments?: unknown } | undefined)?.environments === "all",
    })),
    files: data,
    folder,
    secretIn: (value) => secretInValue(io, value),
    header: (name) => [
      `# yaml-language-server: $schema=${schemaLocation(io.cwd, resolve(io.cwd, folder))(name)}`,
      `# Adopted from environment ${source.name} (project ${source.entry.project}) by posthog-gitops promote --adopt:`,
      "# declared once for every environment; no ids (each environment finds its objects by name).",
    ],
  });
}

function parseQuietly(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/** The edited files loaded again (in memory), their diagnostics shown as any load's are. */
async function loadEdited(files: SourceFile[], flags: PromoteFlags, io: Io): Promise<LoadResult> {
  const { loadFiles } = await import("./config.js");
  const loaded = await loadFiles({ files }, flags, io, "plan");
  for (const d of shownDiagnostics(loaded)) io.stderr.write(`${formatDiagnostic(d)}\n`);
  return loaded;
}

/** The destination's plan from the edited files, with SPEC §9's warnings against the source. */
async function planDestination(
  target: EnvironmentConfig,
  found: SourceReading,
  flags: PromoteFlags,
  io: Io,
): Promise<{
  plan?: PromoteResult["plan"];
  error?: string;
  refusal?: string;
  host?: string;
  warnings: PromoteResult["warnings"];
}> {
  const needs = needsOf(target, KINDS);
  const progress = progressFor(io, { quiet: flags.quiet === true });
  const log = (line: string) => progress.io.stderr.write(`${line}\n`);
  progress.step(`reading live state of ${target.name}`);
  let planned: Awaited<ReturnType<typeof planEnvironment>>;
  try {
    planned = await planEnvironment(
      target,
      { ...flags, args: [] },
      {},
      progress.io,
      log,
      progress,
      wantedBy(needs),
    );
  } finally {
    progress.stop();
  }
  for (const note of found.notes) io.stderr.write(`note: environment ${found.sourceName}: ${note}\n`);
  const warnings =
    planned.facts === undefined
      ? []
      : preflightWarnings(
          needs,
          { name: found.sourceName, facts: found.facts },
          { name: target.name, facts: planned.facts },
        );
  return {
    ...(planned.section.plan !== undefined ? { plan: planned.section.plan } : {}),
    ...(planned.section.error !== undefined ? { error: planned.section.error } : {}),
    ...(planned.section.refusal !== undefined ? { refusal: planned.section.refusal } : {}),
    ...(planned.section.host !== undefined ? { host: planned.section.host } : {}),
    warnings,
  };
}

/** What stderr says after the output: written or not, and what to set. */
function statusLines(result: PromoteResult, flags: PromoteFlags): string[] {
  const lines: string[] = [];
  if (result.files.length === 0) lines.push(`Nothing to promote from ${result.source.name}.`);
  else if (result.written) lines.push(`Wrote ${result.files.map((f) => f.path).join(", ")}.`);
  else if (flags.write !== true)
    lines.push(`Not written: run again with --write to edit ${result.files.map((f) => f.path).join(", ")}.`);
  if (result.variables.length > 0)
    lines.push(`Set these secret variables before applying: ${result.variables.join(", ")}.`);
  if (result.error !== undefined)
    lines.push(`error: environment ${result.destination.name}: ${result.error}`);
  return lines;
}

export type { ConnectionFlags };
