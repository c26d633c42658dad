/**
 * `posthog-gitops pull [--out DIR] [--kind K]`: writes YAML for the project's live objects, one file per
 * kind, with `id` pins and secrets as `${NAME}` placeholders, so an existing project can be adopted:
 * `plan` on the written files reports no changes. Every managed field is written, so later edits in the
 * UI show up as drift. Refuses to overwrite files.
 */
import { mkdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../errors.js";
import { pathTaken, withFile, writeOutput } from "../files.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { pullFileName } from "../pull/document.js";
import { pullFiles } from "../pull/pull.js";
import { flat } from "../text.js";
import { PUBLISHED_SCHEMA } from "../version.js";
import { type ConnectionFlags, withConnection } from "./connect.js";
import { projectChoice } from "./project.js";
import { refresh } from "./pull-refresh.js";

export interface PullFlags extends ConnectionFlags {
  args?: string[];
  out?: string;
  kind?: string;
  /** `--env E`: adopt environment E into its overlay (SPEC §9). */
  env?: string[];
  /** Refresh the live values in the files at `args` (default posthog/) instead of writing new ones. */
  refresh?: boolean;
}

/** The schema of the running package: `schemas/` beside `dist/` in the package or the checkout. */
const SCHEMA = fileURLToPath(new URL("../../schemas/config.schema.json", import.meta.url));

/**
 * What a pulled file's modeline names: a path inside the repository (the working folder) to the running
 * package's schema when it is installed there (node_modules, or this tool's own checkout), else the
 * published schema of this version. Never a path of the machine outside the repository.
 */
export function schemaLocation(cwd: string, dir: string): (name: string) => string {
  const fromRepo = relative(cwd, SCHEMA);
  const inside = fromRepo !== "" && !fromRepo.startsWith("..") && !isAbsolute(fromRepo);
  return (name) =>
    inside
      ? relative(dirname(resolve(dir, name)), SCHEMA)
          .split(sep)
          .join("/")
      : PUBLISHED_SCHEMA;
}

export async function run(flags: PullFlags, io: Io): Promise<number> {
  const paths = flags.args ?? [];
  if ((flags.env ?? []).length > 0) {
    if (flags.refresh)
      throw new UserError("pull --env writes an environment's overlay; --refresh does not take --env");
    const { pullEnvironment } = await import("./pull-environment.js");
    return pullEnvironment({ ...flags, ...(flags.out === "posthog" ? { out: undefined } : {}) }, io, (file) =>
      schemaLocation(io.cwd, dirname(file))(basename(file)),
    );
  }
  if (flags.refresh) {
    if (flags.out !== undefined && flags.out !== "posthog") {
      throw new UserError("pull --refresh rewrites the files it is given: give them as PATH, not --out");
    }
    return refresh(paths, flags, io);
  }
  if (paths.length > 0)
    throw new UserError(
      "pull writes new files into --out; to update files you have, use pull --refresh PATH",
    );
  const { project } = projectChoice(flags, io);
  if (project === undefined) throw new UserError("pull needs a project: --project or POSTHOG_PROJECT_ID");
  const dir = resolve(io.cwd, flags.out ?? "posthog");
  const kinds = flags.kind ? KINDS.filter((k) => k.key === flags.kind) : KINDS;
  if (kinds.length === 0) {
    throw new UserError(
      `--kind ${flags.kind} is not a kind: use one of ${KINDS.map((k) => k.key).join(", ")}`,
    );
  }
  // Anything at the path counts, a link leading nowhere too: pull never writes where a link points.
  const existing = kinds.map((kind) => resolve(dir, pullFileName(kind))).filter((file) => pathTaken(file));
  if (existing.length > 0) {
    const folder = relative(io.cwd, dir) || ".";
    throw new UserError(
      `${existing.map((file) => relative(io.cwd, file)).join(", ")} already exists; pull never overwrites: to bring the files you have up to date with the live values, run posthog-gitops pull --refresh ${folder}; to adopt the project anew, choose another --out`,
    );
  }
  const schema = schemaLocation(io.cwd, dir);
  const files = await withConnection(flags, io, ({ client }) =>
    pullFiles(kinds, client, project, schema, KINDS),
  );
  const shown = relative(io.cwd, dir) || ".";
  await withFile("create the folder", shown, () => mkdir(dir, { recursive: true }));
  for (const pulled of files) {
    const file = resolve(dir, pulled.name);
    await writeOutput(io, "write", relative(io.cwd, file), file, pulled.text, { create: true });
    const words = kinds.find((k) => k.name === pulled.kind)?.words ?? { one: pulled.kind, many: pulled.kind };
    io.stderr.write(
      `wrote ${relative(io.cwd, file)}: ${pulled.objects} ${pulled.objects === 1 ? words.one : words.many}\n`,
    );
    if (pulled.variables.length > 0) {
      io.stderr.write(`  set these secret variables before apply: ${pulled.variables.join(", ")}\n`);
    }
    for (const left of pulled.leftOut) io.stderr.write(`  left out ${flat(left)}\n`);
  }
  return 0;
}
