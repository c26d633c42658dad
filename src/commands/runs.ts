/**
 * `posthog-gitops runs NAME`: the export's runs, newest first, following the service's cursor pages
 * until `--limit`. `--since` defaults to the service's own window (7 days); `--status` filters
 * (sent to the service and applied again here, for servers that ignore the filter).
 * Table or JSON (schemas/runs.schema.json) on stdout.
 */

import type { Io } from "../io.js";
import { type BatchExportRun, exportRef, runItem, runsApi } from "../kinds/batch-export/operations/index.js";
import { type RunsDocument, renderRunsText } from "../render/runs.js";
import { painter } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { scrubValue } from "../scrub.js";
import { flat } from "../text.js";
import { parseInstant } from "../time.js";
import { count } from "../words.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { parseFormat, parseLimit, parseStatuses } from "./options.js";
import { resolveExport } from "./resolve-export.js";

export interface RunsOptions extends ConnectionFlags {
  args?: string[];
  status?: string | string[];
  since?: string;
  limit?: string | number;
  config?: string;
  format?: string;
}

export async function run(options: RunsOptions, io: Io): Promise<number> {
  return withService(options, io, async (ctx) => {
    const format = parseFormat(options.format, ["text", "json"] as const, "text");
    const statuses = parseStatuses(options.status);
    const limit = parseLimit(options.limit, "--limit", 50, 100_000);
    const since = parseInstant(options.since ?? "-7d", "--since", ctx.now);
    const { project, export: b } = await resolveExport(ctx, options, options.args?.[0], options.config);
    const query = { after: since, ...(statuses.length > 0 ? { status: statuses } : {}) };
    const runs: BatchExportRun[] = [];
    for await (const r of runsApi(ctx.client).list(project, b.id, query)) {
      if (statuses.length > 0 && !statuses.includes(r.status)) continue;
      runs.push(r);
      if (runs.length >= limit) break;
    }
    const doc: RunsDocument = {
      format_version: "1",
      generated_at: ctx.now.toISOString(),
      export: exportRef(project, b),
      filters: { status: statuses, since },
      runs: runs.map(runItem),
    };
    // Service text is scrubbed before it is cut or escaped (scrub.ts).
    const shown = scrubValue(io, doc);
    ctx.io.stdout.write(
      format === "json"
        ? `${JSON.stringify(shown, null, 2)}\n`
        : renderRunsText(shown, ctx.now, painter(colorEnabled(io.env, io.stdout.isTTY === true))),
    );
    ctx.io.stderr.write(
      `${count(runs.length, "run")} of "${flat(b.name)}"${runs.length >= limit ? ` (--limit ${limit} reached)` : ""}\n`,
    );
    return 0;
  });
}
