/**
 * `posthog-gitops pull [--out DIR] [--kind K]`: writes YAML for the project's live objects, with `id`
 * pins and secrets as `${NAME}` placeholders, so an existing project can be adopted: `plan` on the
 * written files reports no changes. Reads collaborators only of dashboards restricted to collaborators
 * (the others cannot have any) and takes sharing from the list's `is_shared` (no request per dashboard).
 * Every managed field is written, so later edits in the UI show up as drift. Refuses to overwrite files.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { batchExportHandler, dashboardHandler } from "../kinds/index.js";
import type { ServiceClient } from "../service/index.js";
import type { DashboardBasic, SharingConfiguration } from "../service/types.js";
import { type ConnectionFlags, defaultProject, withConnection } from "./common.js";

export interface PullFlags extends ConnectionFlags {
  out?: string;
  kind?: "dashboards" | "batch_exports";
}

const SCHEMA = fileURLToPath(new URL("../../schemas/config.schema.json", import.meta.url));

export async function run(flags: PullFlags, io: Io): Promise<number> {
  const project = defaultProject(flags, io);
  if (project === undefined) throw new UserError("pull needs a project: --project or POSTHOG_PROJECT_ID");
  const dir = resolve(io.cwd, flags.out ?? "posthog");
  const kinds = flags.kind ? [flags.kind] : (["dashboards", "batch_exports"] as const);
  const targets = kinds.map((k) => ({ kind: k, file: resolve(dir, `${k.replace("_", "-")}.yaml`) }));
  const existing = targets.filter((t) => existsSync(t.file));
  if (existing.length > 0) {
    throw new UserError(
      `${existing.map((t) => relative(io.cwd, t.file)).join(", ")} already exists; pull never overwrites: choose another --out`,
    );
  }
  const written = await withConnection(flags, io, async ({ client }) => {
    const files: string[] = [];
    for (const { kind, file } of targets) {
      const { items, variables } =
        kind === "dashboards"
          ? await pullDashboards(client, project)
          : await pullBatchExports(client, project);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, document(file, project, kind, items, variables));
      io.stderr.write(`wrote ${relative(io.cwd, file)}: ${items.length} ${kind.replace("_", " ")}\n`);
      if (variables.length > 0) {
        io.stderr.write(`  set these secret variables before apply: ${variables.join(", ")}\n`);
      }
      files.push(file);
    }
    return files;
  });
  return written.length > 0 ? 0 : 1;
}

async function pullDashboards(client: ServiceClient, project: number) {
  const dashboards = await client.dashboards.listAll(project);
  const restricted = dashboards.filter((d) => d.restriction_level === 37);
  const collaborators = new Map(
    await Promise.all(
      restricted.map(async (d) => [d.id, await client.collaborators.list(project, d.id)] as const),
    ),
  );
  const items = sortByName(dashboards).map((d) => {
    const extras: Parameters<typeof dashboardHandler.toInput>[1] = {};
    const list = collaborators.get(d.id);
    if (list) extras.collaborators = list;
    extras.sharing = sharedFromList(d);
    return dashboardHandler.toInput(d, extras).input;
  });
  return { items, variables: [] as string[] };
}

async function pullBatchExports(client: ServiceClient, project: number) {
  const exports = await client.batchExports.listAll(project);
  const variables: string[] = [];
  const items = sortByName(exports).map((b) => {
    const pulled = batchExportHandler.toInput(b, {});
    variables.push(...pulled.variables);
    return pulled.input;
  });
  return { items, variables };
}

/** Sharing as the list reports it: only `enabled` is managed, and `is_shared` mirrors it. */
function sharedFromList(d: DashboardBasic): SharingConfiguration {
  return { created_at: null, enabled: d.is_shared, access_token: "" };
}

function sortByName<T extends { name: string | null }>(items: T[]): T[] {
  return [...items].sort((a, b) =>
    (a.name ?? "") < (b.name ?? "") ? -1 : (a.name ?? "") > (b.name ?? "") ? 1 : 0,
  );
}

function document(
  file: string,
  project: number,
  kind: string,
  items: unknown[],
  variables: string[],
): string {
  const schema = relative(dirname(file), SCHEMA).split("\\").join("/");
  const header = [
    `# yaml-language-server: $schema=${schema}`,
    `# Pulled from project ${project} by posthog-gitops pull. The id pins keep identity across renames.`,
    ...(variables.length > 0 ? [`# Secrets come from the environment: ${variables.join(", ")}`] : []),
  ];
  return `${header.join("\n")}\n${stringify({ project, [kind]: items }, { lineWidth: 0 })}`;
}
