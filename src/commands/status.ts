/**
 * `posthog-gitops status [PATH...]`: one row per batch export with its latest run, failures and
 * records of the last 7 days. Scope: the exports the files in PATH declare; else every export of
 * `--organization ID` (all its projects); else every export of the project (--project /
 * POSTHOG_PROJECT_ID); else the files in `posthog/` when that folder exists.
 * Result on stdout (table, or JSON per schemas/status.schema.json), summary on stderr.
 * `--fail-on-error` exits 1 when some export's latest run failed (for cron alerting).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../config/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { type ConnectionOptions, type OpsContext, withService } from "../ops/connect.js";
import { isFailed, type MissingExport, sortRows, statusRows } from "../ops/status.js";
import { renderStatusText, statusDocument } from "../ops/status-format.js";
import { painter } from "../ops/table.js";
import { collect } from "../service/index.js";
import type { BatchExport } from "../service/types.js";

export interface StatusOptions extends ConnectionOptions {
  args?: string[];
  organization?: string;
  failOnError?: boolean;
  format?: "text" | "json";
}

interface Selection {
  exports: BatchExport[];
  missing: MissingExport[];
  organization: string | null;
  projects: number[];
}

export async function run(options: StatusOptions, io: Io): Promise<number> {
  const format = options.format ?? "text";
  return withService(options, io, async (ctx) => {
    if (format !== "text" && format !== "json")
      throw new UserError(`--format must be text or json, got "${format}"`);
    const selection = await select(ctx, options);
    const rows = sortRows(await statusRows(ctx, selection.exports));
    const doc = statusDocument(
      rows,
      selection.missing,
      {
        organization: selection.organization,
        projects: selection.projects,
      },
      ctx.now,
    );
    io.stdout.write(
      format === "json" ? `${JSON.stringify(doc, null, 2)}\n` : renderStatusText(doc, ctx.now, painter(io)),
    );
    const s = doc.summary;
    io.stderr.write(
      `${s.exports} batch export${s.exports === 1 ? "" : "s"}: ${s.failing} failing, ${s.paused} paused, ${s.failed_runs} failed run${s.failed_runs === 1 ? "" : "s"} in ${doc.window_days} days\n`,
    );
    return options.failOnError && rows.some((r) => isFailed(r.latest_run?.status)) ? 1 : 0;
  });
}

async function select(ctx: OpsContext, options: StatusOptions): Promise<Selection> {
  const paths = options.args ?? [];
  if (paths.length === 0 && options.organization) {
    const exports = await collect(ctx.client.batchExports.listForOrganization(options.organization));
    const projects = [...new Set(exports.map((b) => b.team_id))].sort((a, b) => a - b);
    return { exports, missing: [], organization: options.organization, projects };
  }
  if (paths.length === 0 && ctx.project !== undefined) {
    const exports = await collect(ctx.client.batchExports.list(ctx.project));
    return { exports, missing: [], organization: null, projects: [ctx.project] };
  }
  if (paths.length === 0 && !existsSync(resolve(ctx.io.cwd, "posthog"))) {
    throw new UserError(
      "status needs a scope: pass --project, set POSTHOG_PROJECT_ID, use --organization ID, or give config files (PATH)",
    );
  }
  if (options.organization) {
    throw new UserError("give either PATH or --organization, not both");
  }
  return fromFiles(ctx, paths.length > 0 ? paths : ["posthog"]);
}

/** The exports the files declare, matched to live ones by `id` pin, else by name. */
async function fromFiles(ctx: OpsContext, paths: string[]): Promise<Selection> {
  const loaded = await loadConfig(paths, {
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    mode: "plan",
    ...(ctx.project === undefined ? {} : { defaultProject: ctx.project }),
  });
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    throw new UserError(
      `${errors.length} error${errors.length === 1 ? "" : "s"} in the configuration (run validate): ${errors[0]?.file}:${errors[0]?.line}:${errors[0]?.column}: ${errors[0]?.message}`,
    );
  }
  const exports: BatchExport[] = [];
  const missing: MissingExport[] = [];
  const projects: number[] = [];
  for (const p of loaded.projects) {
    if (p.project === undefined || p.batchExports.length === 0) continue;
    const project = p.project;
    projects.push(project);
    const live = await collect(ctx.client.batchExports.list(project));
    for (const d of p.batchExports) {
      if (d.deleted) continue;
      const hit = d.id ? live.find((b) => b.id === d.id) : live.find((b) => b.name === d.name);
      if (hit) exports.push(hit);
      else missing.push({ project, name: d.name });
    }
  }
  return { exports, missing, organization: null, projects };
}
