/**
 * `posthog-gitops backfill NAME --start T --end T`: export a past window again (or for the first time,
 * e.g. the gap while the export was paused). The window is checked before anything is sent: times need
 * a timezone (or are relative, like -12h), start is before end, end is not in the future, and daily and
 * weekly exports take dates only (YYYY-MM-DD). The syntax is checked before any request; the date-only
 * rule needs the export's interval, so it is checked after NAME is looked up and before the backfill
 * is sent. Before it is sent, a warning names the runs, retries and backfills of the last 24 hours whose
 * windows it overlaps (their data may be exported twice). The backfill is sent once (never repeated
 * automatically: it is a create).
 */

import { nowDate } from "posthog-gitops-shared/clock";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import {
  backfillsApi,
  checkRunsHint,
  checkWindowForInterval,
  checkWindowSyntax,
  type Overlap,
  quoteArg,
  recentOverlaps,
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
    // Said before it is sent: what the last day already exported, or is exporting, of this window.
    const overlaps = await recentOverlaps(ctx.client, project, b.id, body, now);
    if (overlaps.length > 0) ctx.io.stderr.write(`${overlapWarning(overlaps)}\n`);
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

/** How many overlapping runs and backfills the warning names; the rest are counted. */
const NAMED = 5;

/** `warning: the window overlaps 2 runs or backfills of the last 24 hours: …; its data may be exported twice`. */
export function overlapWarning(overlaps: readonly Overlap[]): string {
  const when = (o: Overlap) =>
    `${o.start === null ? "…" : isoTime(o.start)} → ${o.end === null ? "…" : isoTime(o.end)}`;
  const named = overlaps
    .slice(0, NAMED)
    .map((o) => `${o.kind} ${flat(o.id)} (${flat(o.status)}, ${when(o)})`);
  const more = overlaps.length > NAMED ? ` and ${overlaps.length - NAMED} more` : "";
  const what = overlaps.length === 1 ? "1 run or backfill" : `${overlaps.length} runs or backfills`;
  return `warning: this window overlaps ${what} of the last 24 hours: ${named.join(", ")}${more}; its data may be exported twice`;
}
