/**
 * `posthog-gitops status [PATH...]`: one row per batch export with its latest run, failures and
 * records of the last 7 days. Scope: the exports the files in PATH (else `posthog/`, when it exists)
 * declare; else every export of `--organization ID` (all its projects, from the organization's list or,
 * where the service has no such route, from each project's); else every export of the project
 * (--project / POSTHOG_PROJECT_ID).
 * Result on stdout (table, or JSON per schemas/status.schema.json), summary on stderr.
 * `--fail-on-error` exits 1 when some export's latest run failed (for cron alerting).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import {
  BATCH_EXPORT_KIND,
  type BatchExport,
  declaredExports,
  EXPORT_WORDS,
  organizationExports,
  projectExports,
  statusRows,
} from "../kinds/batch-export/operations/index.js";
import { type MissingExport, renderStatusText, statusDocument } from "../render/status.js";
import { isFailed, painter } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { scrubValue } from "../scrub.js";
import { count } from "../words.js";
import { readConfig } from "./config.js";
import { type ConnectionFlags, type OpsContext, withService } from "./connect.js";
import { projectChoice } from "./project.js";

export interface StatusOptions extends ConnectionFlags {
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
    const rows = await statusRows(ctx.client, selection.exports, ctx.now);
    const doc = statusDocument(
      rows,
      selection.missing,
      {
        organization: selection.organization,
        projects: selection.projects,
      },
      ctx.now,
    );
    // Service text is scrubbed before it is cut or escaped (scrub.ts).
    const shown = scrubValue(io, doc);
    ctx.io.stdout.write(
      format === "json"
        ? `${JSON.stringify(shown, null, 2)}\n`
        : renderStatusText(shown, ctx.now, painter(colorEnabled(io.env, io.stdout.isTTY === true))),
    );
    const s = doc.summary;
    ctx.io.stderr.write(
      `${count(s.exports, EXPORT_WORDS.one)}: ${s.failing} failing, ${s.paused} paused, ${count(s.failed_runs, "failed run")} in ${count(doc.window_days, "day")}\n`,
    );
    return options.failOnError && rows.some((r) => isFailed(r.latest_run?.status)) ? 1 : 0;
  });
}

/**
 * Which exports: those the files declare (PATH, else `posthog/` when it exists, with the project
 * precedence of `plan`); else every export of `--organization ID`; else every export of the project
 * (--project / POSTHOG_PROJECT_ID).
 */
async function select(ctx: OpsContext, options: StatusOptions): Promise<Selection> {
  const paths = options.args ?? [];
  if (paths.length > 0 && options.organization)
    throw new UserError("give either PATH or --organization, not both");
  if (paths.length > 0) return fromFiles(ctx, options, paths);
  if (options.organization) {
    const exports = await organizationExports(ctx.client, options.organization);
    const projects = [...new Set(exports.map((b) => b.team_id))].sort((a, b) => a - b);
    return { exports, missing: [], organization: options.organization, projects };
  }
  if (existsSync(resolve(ctx.io.cwd, "posthog"))) return fromFiles(ctx, options, ["posthog"]);
  const { project } = projectChoice(options, ctx.io);
  if (project === undefined) {
    throw new UserError(
      "status needs a scope: pass --project, set POSTHOG_PROJECT_ID, use --organization ID, or give config files (PATH)",
    );
  }
  const exports = await projectExports(ctx.client, project);
  return { exports, missing: [], organization: null, projects: [project] };
}

/** The exports the files declare, matched to live ones by `id` pin, else by name. */
async function fromFiles(ctx: OpsContext, options: StatusOptions, paths: string[]): Promise<Selection> {
  const loaded = await readConfig(paths, options, ctx.io, "plan", [BATCH_EXPORT_KIND]);
  const exports: BatchExport[] = [];
  const missing: MissingExport[] = [];
  const projects: number[] = [];
  for (const p of loaded.projects) {
    const declared = declaredExports(p);
    if (p.project === undefined || declared.length === 0) continue;
    const project = p.project;
    projects.push(project);
    const live = await projectExports(ctx.client, project);
    for (const d of declared) {
      if (d.deleted) continue;
      const hit = d.id ? live.find((b) => b.id === d.id) : live.find((b) => b.name === d.name);
      if (hit) exports.push(hit);
      else missing.push({ project, name: d.name });
    }
  }
  return { exports, missing, organization: null, projects };
}
