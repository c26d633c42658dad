/**
 * `posthog-gitops logs NAME [--run ID]`: the export's log entries (or one run's), newest first, up to
 * `--limit`, filtered by `--level` (comma-separated), `--search` and `--since` on the service.
 * Lines or JSON (schemas/logs.schema.json) on stdout.
 */
import type { Io } from "../io.js";
import { type LogsDocument, renderLogsText } from "../render/logs.js";
import { exportRef } from "../render/runs.js";
import { painter } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { collect } from "../service/index.js";
import { parseInstant } from "../time.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { parseFormat, parseLevels, parseLimit } from "./options.js";
import { resolveExport } from "./resolve-export.js";

export interface LogsOptions extends ConnectionFlags {
  args?: string[];
  run?: string;
  level?: string | string[];
  search?: string;
  since?: string;
  limit?: string | number;
  config?: string;
  format?: string;
}

/** The service's largest page of log entries. */
const PAGE = 500;

export async function run(options: LogsOptions, io: Io): Promise<number> {
  return withService(options, io, async (ctx) => {
    const format = parseFormat(options.format, ["text", "json"] as const, "text");
    const levels = parseLevels(options.level);
    const limit = parseLimit(options.limit, "--limit", 50, 100_000);
    const since = options.since ? parseInstant(options.since, "--since", ctx.now) : null;
    const { project, export: b } = await resolveExport(ctx, options, options.args?.[0], options.config);
    const query = {
      limit: Math.min(limit, PAGE),
      level: levels.length > 0 ? levels.join(",") : undefined,
      search: options.search || undefined,
      after: since ?? undefined,
    };
    const source = options.run
      ? ctx.client.runs.logs(project, b.id, options.run, query, limit)
      : ctx.client.batchExports.logs(project, b.id, query, limit);
    const entries = (await collect(source, limit)).map((e) => ({
      log_source_id: e.log_source_id,
      instance_id: e.instance_id,
      timestamp: e.timestamp,
      level: e.level,
      message: e.message,
    }));
    const doc: LogsDocument = {
      format_version: "1",
      generated_at: ctx.now.toISOString(),
      export: exportRef(project, b),
      filters: { run: options.run ?? null, level: levels, search: options.search ?? null, since },
      entries,
    };
    ctx.io.stdout.write(
      format === "json"
        ? `${JSON.stringify(doc, null, 2)}\n`
        : renderLogsText(doc, painter(colorEnabled(io.env, io.stdout.isTTY === true))),
    );
    ctx.io.stderr.write(`${entries.length} log entr${entries.length === 1 ? "y" : "ies"} of "${b.name}"\n`);
    return 0;
  });
}
