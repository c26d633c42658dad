/**
 * `posthog-gitops logs NAME [--run ID]`: the export's log entries (or one run's), newest first, up to
 * `--limit`, filtered by `--level` (comma-separated), `--search` and `--since` on the service.
 * Lines or JSON (schemas/logs.schema.json) on stdout. A run's entries are the export's entries of that
 * run (`instance_id`), after the run is looked up however old it is (run-lookup.ts); the service
 * returns at most 500 entries a request, so a larger `--limit` pages back with `before=`, and stderr
 * says when older entries may exist beyond what is shown.
 */

import type { Io } from "../io.js";
import { exportRef, getRun, LOG_PAGE, readLogs } from "../kinds/batch-export/operations/index.js";
import { type LogsDocument, renderLogsText } from "../render/logs.js";
import { painter } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { humanTime } from "../render/time.js";
import { scrubValue } from "../scrub.js";
import { flat } from "../text.js";
import { parseInstant } from "../time.js";
import { count } from "../words.js";
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

export async function run(options: LogsOptions, io: Io): Promise<number> {
  return withService(options, io, async (ctx) => {
    const format = parseFormat(options.format, ["text", "json"] as const, "text");
    const levels = parseLevels(options.level);
    const limit = parseLimit(options.limit, "--limit", 50, 100_000);
    const since = options.since ? parseInstant(options.since, "--since", ctx.now) : null;
    const { project, export: b } = await resolveExport(ctx, options, options.args?.[0], options.config);
    if (options.run) await getRun(ctx.client, project, b, options.run);
    const read = await readLogs(
      ctx.client,
      project,
      b.id,
      {
        level: levels.length > 0 ? levels.join(",") : undefined,
        search: options.search || undefined,
        after: since ?? undefined,
        instanceId: options.run,
      },
      limit,
    );
    const entries = read.entries.map((e) => ({
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
    // Service text is scrubbed before it is cut or escaped (scrub.ts).
    const shown = scrubValue(io, doc);
    ctx.io.stdout.write(
      format === "json"
        ? `${JSON.stringify(shown, null, 2)}\n`
        : renderLogsText(shown, painter(colorEnabled(io.env, io.stdout.isTTY === true))),
    );
    const more = read.more ? ` (--limit ${limit} reached: older entries may exist)` : "";
    ctx.io.stderr.write(`${count(entries.length, "log entry", "log entries")} of "${flat(b.name)}"${more}\n`);
    if (read.stalledAt !== undefined) {
      ctx.io.stderr.write(
        `warning: over ${LOG_PAGE} entries share the timestamp ${humanTime(read.stalledAt, ctx.now)}, which the service cannot page past: older entries are not shown\n`,
      );
    }
    return 0;
  });
}
