/**
 * `posthog-gitops backfill NAME --start T --end T`: export a past window again (or for the first time,
 * e.g. the gap while the export was paused). The window is checked before anything is sent: times need
 * a timezone (or are relative, like -12h), start is before end, end is not in the future, and daily and
 * weekly exports take dates only (YYYY-MM-DD). The syntax is checked before any request; the date-only
 * rule needs the export's interval, so it is checked after NAME is looked up and before the backfill
 * is sent. The backfill is sent once (never repeated automatically: it is a create).
 */

import { nowDate } from "posthog-gitops-shared/clock";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import {
  backfillsApi,
  checkRunsHint,
  checkWindowForInterval,
  checkWindowSyntax,
  quoteArg,
} from "../kinds/batch-export/operations/index.js";
import { isoTime } from "../render/time.js";
import { UnknownOutcomeError } from "../service/index.js";
import { flat } from "../text.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { parseFormat } from "./options.js";
import { resolveExport } from "./resolve-export.js";

export interface BackfillOptions extends ConnectionFlags {
  args?: string[];
  start?: string;
  end?: string;
  config?: string;
  format?: string;
}

export async function run(options: BackfillOptions, io: Io): Promise<number> {
  const now = nowDate(io.clock);
  // Checked before the client exists: a refused window needs no key and sends nothing.
  const format = parseFormat(options.format, ["text", "json"] as const, "text");
  const window = checkWindowSyntax(options.start, options.end, now);
  return withService(options, io, async (ctx) => {
    const { project, export: b } = await resolveExport(ctx, options, options.args?.[0], options.config);
    const body = checkWindowForInterval(window, b.name, b.interval, b.offset_day);
    const { backfill_id } = await backfillsApi(ctx.client)
      .start(project, b.id, body)
      .catch((error) => {
        if (error instanceof UnknownOutcomeError)
          throw new UserError(`${error.message}; ${checkRunsHint(b.name)}`);
        throw error;
      });
    if (format === "json") {
      const doc = { format_version: "1", project, export: { id: b.id, name: b.name }, backfill_id, ...body };
      ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      ctx.io.stdout.write(
        `backfill ${backfill_id} started for "${flat(b.name)}": ${isoTime(body.start_at)} → ${isoTime(body.end_at)}\n`,
      );
    }
    ctx.io.stderr.write(`follow it with: posthog-gitops runs ${quoteArg(b.name)} --since -1h\n`);
    return 0;
  });
}
