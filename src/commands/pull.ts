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
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { pullDocument, pullFileName } from "../pull/document.js";
import { type ConnectionFlags, projectChoice, withConnection } from "./connect.js";

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
  const targets = kinds.map((kind) => ({ kind, file: resolve(dir, pullFileName(kind)) }));
  const existing = targets.filter((t) => existsSync(t.file));
  if (existing.length > 0) {
    throw new UserError(
      `${existing.map((t) => relative(io.cwd, t.file)).join(", ")} already exists; pull never overwrites: choose another --out`,
    );
  }
  await withConnection(flags, io, async ({ client }) => {
    for (const { kind, file } of targets) {
      const pulled = await kind.pull(client, project);
      const schema = relative(dirname(file), SCHEMA).split("\\").join("/");
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, pullDocument(kind, project, pulled, schema));
      io.stderr.write(`wrote ${relative(io.cwd, file)}: ${pulled.items.length} ${kind.words.many}\n`);
      if (pulled.variables.length > 0) {
        io.stderr.write(`  set these secret variables before apply: ${pulled.variables.join(", ")}\n`);
      }
    }
  });
  return 0;
}
