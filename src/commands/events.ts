/**
 * `posthog-gitops events`: the project's events, newest first, through the legacy events list (paged
 * with `before=`), to check that events flow before and after an export is created. Filters: `--event`,
 * `--distinct-id`, `--after` / `--before` (exclusive, ISO-8601 with timezone or -1d) and `--where
 * key=value` (exact match on an event property, repeatable). Table, JSON (schemas/events.schema.json)
 * or CSV on stdout; the count on stderr. The events endpoints have their own lower rate limit.
 */
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { type EventsDocument, eventRow, renderEventsCsv, renderEventsText } from "../render/events.js";
import { painter } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { scrubValue } from "../scrub.js";
import { collect } from "../service/index.js";
import { parseInstant } from "../time.js";
import { count } from "../words.js";
import { configuredProject } from "./config.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { parseFormat, parseLimit } from "./options.js";
import { parseWhere } from "./where.js";

export interface EventsOptions extends ConnectionFlags {
  args?: string[];
  event?: string;
  distinctId?: string;
  after?: string;
  before?: string;
  where?: string | string[];
  limit?: string | number;
  format?: string;
  config?: string;
}

/** The service's largest page of events (newest servers). */
const PAGE = 1000;

export async function run(options: EventsOptions, io: Io): Promise<number> {
  return withService(options, io, async (ctx) => {
    const format = parseFormat(options.format, ["text", "json", "csv"] as const, "text");
    const limit = parseLimit(options.limit, "--limit", 100, 100_000);
    const after = options.after ? parseInstant(options.after, "--after", ctx.now) : null;
    const before = options.before ? parseInstant(options.before, "--before", ctx.now) : null;
    if (after && before && Date.parse(after) >= Date.parse(before)) {
      throw new UserError(`--after ${options.after} must be before --before ${options.before}`);
    }
    const properties = parseWhere(options.where);
    const project = await configuredProject(options.config, options, io);
    const query = {
      event: options.event || undefined,
      distinct_id: options.distinctId || undefined,
      after: after ?? undefined,
      before: before ?? undefined,
      properties: properties.length > 0 ? JSON.stringify(properties) : undefined,
      limit: Math.min(limit, PAGE),
    };
    const events = (await collect(ctx.client.events.list(project, query, limit), limit)).map(eventRow);
    const doc: EventsDocument = {
      format_version: "1",
      generated_at: ctx.now.toISOString(),
      project,
      filters: {
        event: options.event ?? null,
        distinct_id: options.distinctId ?? null,
        after,
        before,
        properties,
      },
      events,
    };
    // Service text is scrubbed before it is cut or escaped (scrub.ts).
    const shown = scrubValue(io, doc);
    const out =
      format === "json"
        ? `${JSON.stringify(shown, null, 2)}\n`
        : format === "csv"
          ? renderEventsCsv(shown.events)
          : renderEventsText(shown, painter(colorEnabled(io.env, io.stdout.isTTY === true)));
    ctx.io.stdout.write(out);
    ctx.io.stderr.write(
      `${count(events.length, "event")}${events.length >= limit ? ` (--limit ${limit} reached)` : ""}\n`,
    );
    return 0;
  });
}
