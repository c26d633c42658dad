/**
 * `posthog-gitops pull --env E [PATH...] [--out DIR]` (SPEC §9): adopts environment E. Reads E's
 * project with E's key and host, and writes E's overlay (`DIR/E.yaml`, default folder
 * `posthog/overlays`): the pins of the objects the shared files declare, and the objects only E has.
 * Never overwrites a file.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { Diagnostics } from "../config/diagnostics.js";
import { parseYaml } from "../config/parse.js";
import { UserError } from "../errors.js";
import { pathTaken, withFile, writeOutput } from "../files.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { overlayDocument, overlayKind } from "../pull/overlay.js";
import { flat } from "../text.js";
import { readConfig } from "./config.js";
import type { ConnectionFlags } from "./connect.js";
import { configurationError, environmentConnection, selectEnvironments } from "./environments.js";
import { progressFor } from "./progress.js";

export interface PullEnvironmentFlags extends ConnectionFlags {
  args?: string[];
  out?: string;
  kind?: string;
  env?: string[];
}

/** The identities the overlay files list under `key`, each with the first file naming it. */
async function namedIn(
  files: readonly string[],
  key: string,
  identity: string,
  cwd: string,
): Promise<Map<string, string>> {
  const named = new Map<string, string>();
  for (const file of files) {
    const text = await readFile(resolve(cwd, file), "utf8").catch(() => "");
    const data = parseYaml(file, text, new Diagnostics())?.data as Record<string, unknown> | undefined;
    const list = data?.[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const name = (item as Record<string, unknown> | null)?.[identity];
      if (typeof name === "string" && !named.has(name)) named.set(name, file);
    }
  }
  return named;
}

export async function pullEnvironment(
  flags: PullEnvironmentFlags,
  io: Io,
  schema: (file: string) => string,
): Promise<number> {
  const wanted = flags.env ?? [];
  if (wanted.length !== 1) throw new UserError("pull adopts one environment at a time: --env NAME");
  const desired = await readConfig(flags.args ?? [], flags, io, "plan");
  const [environment] = selectEnvironments(desired, { ...flags, env: wanted });
  if (environment === undefined || desired.environments === undefined) {
    throw new UserError(`--env ${wanted[0]}: the files declare no environments (an environments: mapping)`);
  }
  const invalid = configurationError(environment);
  if (invalid !== undefined) throw invalid;
  const kinds = flags.kind ? KINDS.filter((k) => k.key === flags.kind) : KINDS;
  const dir = resolve(io.cwd, flags.out ?? "posthog/overlays");
  const file = resolve(dir, `${environment.name}.yaml`);
  const shown = relative(io.cwd, file);
  if (pathTaken(file)) {
    throw new UserError(`${shown} already exists; pull never overwrites: choose another --out`);
  }
  const overlays = new Set(environment.overlays);
  const excludedOf = (key: string) =>
    new Set(
      environment.document.marks
        .filter((m) => m.how === "excluded" && m.pointer === `/${key}`)
        .map((m) => m.detail ?? ""),
    );
  const progress = progressFor(io, { quiet: flags.quiet === true });
  const connection = environmentConnection(
    environment,
    flags,
    io,
    (line) => progress.io.stderr.write(`${line}\n`),
    progress,
  );
  const project = environment.entry.project;
  let written: ReturnType<typeof overlayKind>[];
  try {
    progress.step("reading live state");
    const context = { kinds: kinds.map((k) => k.name) };
    written = [];
    for (const kind of kinds) {
      const pulled = await kind.pull(connection.client, project, context);
      written.push(
        overlayKind({
          kind,
          pulled,
          declared: environment.config.projects.flatMap((p) => p.objects[kind.name] ?? []),
          overlays,
          excluded: excludedOf(kind.key),
          named: await namedIn(environment.overlays, kind.key, kind.identityKey ?? "name", io.cwd),
        }),
      );
    }
  } finally {
    progress.stop();
    await connection.client.close();
  }
  const text = overlayDocument(environment.name, project, written, schema(file));
  await withFile("create the folder", relative(io.cwd, dir) || ".", () =>
    mkdir(dirname(file), { recursive: true }),
  );
  await writeOutput(io, "write", shown, file, text, { create: true });
  const pins = written.reduce((n, k) => n + k.pins, 0);
  const own = written.reduce((n, k) => n + k.own, 0);
  io.stderr.write(
    `wrote ${shown}: ${pins} pins of shared declarations, ${own} objects only ${environment.name} has\n`,
  );
  const variables = [...new Set(written.flatMap((k) => k.variables))];
  if (variables.length > 0)
    io.stderr.write(`  set these secret variables before apply: ${variables.join(", ")}\n`);
  for (const left of written.flatMap((k) => k.skipped)) io.stderr.write(`  left out ${flat(left)}\n`);
  return 0;
}
