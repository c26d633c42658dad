/**
 * `posthog-gitops pull [--out DIR] [--kind K]`: writes YAML for the project's live objects, one file per
 * kind, with `id` pins and secrets as `${NAME}` placeholders, so an existing project can be adopted:
 * `plan` on the written files reports no changes. Every managed field is written, so later edits in the
 * UI show up as drift. Refuses to overwrite files.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../errors.js";
import { withFile } from "../files.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { pullFileName } from "../pull/document.js";
import { pullFiles } from "../pull/pull.js";
import { type ConnectionFlags, withConnection } from "./connect.js";
import { projectChoice } from "./project.js";

export interface PullFlags extends ConnectionFlags {
  out?: string;
  kind?: string;
}

const SCHEMA = fileURLToPath(new URL("../../schemas/config.schema.json", import.meta.url));

export async function run(flags: PullFlags, io: Io): Promise<number> {
  const { project } = projectChoice(flags, io);
  if (project === undefined) throw new UserError("pull needs a project: --project or POSTHOG_PROJECT_ID");
  const dir = resolve(io.cwd, flags.out ?? "posthog");
  const kinds = flags.kind ? KINDS.filter((k) => k.key === flags.kind) : KINDS;
  if (kinds.length === 0) {
    throw new UserError(
      `--kind ${flags.kind} is not a kind: use one of ${KINDS.map((k) => k.key).join(", ")}`,
    );
  }
  const existing = kinds.map((kind) => resolve(dir, pullFileName(kind))).filter((file) => existsSync(file));
  if (existing.length > 0) {
    throw new UserError(
      `${existing.map((file) => relative(io.cwd, file)).join(", ")} already exists; pull never overwrites: choose another --out`,
    );
  }
  const schema = (name: string) =>
    relative(dirname(resolve(dir, name)), SCHEMA)
      .split("\\")
      .join("/");
  const files = await withConnection(flags, io, ({ client }) => pullFiles(kinds, client, project, schema));
  const shown = relative(io.cwd, dir) || ".";
  await withFile("create the folder", shown, () => mkdir(dir, { recursive: true }));
  for (const pulled of files) {
    const file = resolve(dir, pulled.name);
    await withFile("write", relative(io.cwd, file), () => writeFile(file, pulled.text));
    const words = kinds.find((k) => k.name === pulled.kind)?.words ?? { one: pulled.kind, many: pulled.kind };
    io.stderr.write(
      `wrote ${relative(io.cwd, file)}: ${pulled.objects} ${pulled.objects === 1 ? words.one : words.many}\n`,
    );
    if (pulled.variables.length > 0) {
      io.stderr.write(`  set these secret variables before apply: ${pulled.variables.join(", ")}\n`);
    }
  }
  return 0;
}
