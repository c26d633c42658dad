/**
 * The rules across a declared batch export's fields, all knowable offline: start_at is before end_at;
 * the schedule's offsets fit the interval (offset_day weekly only, offset_hour daily and weekly only;
 * an offset that does not fit is left out); HTTP destinations export events only; `filters` go with
 * model events only, the HogQL-only fields with model hogql, and MERGE needs a primary key.
 */
import type { ObjectContext } from "../../config/context.js";
import { isoTime } from "../../render/time.js";
import type { InputOf } from "../define/index.js";
import type { batchExportFields, DesiredBatchExport } from "./fields.js";

type Input = InputOf<typeof batchExportFields.fields>;

export function checkBatchExport(input: Input, out: DesiredBatchExport, ctx: ObjectContext): void {
  const interval = input.interval;
  if (input.offset_day !== undefined && interval !== undefined && interval !== "week") {
    ctx.error(
      "/offset_day",
      `offset_day of ${ctx.owner} applies to weekly exports only (its interval is ${interval})`,
      "key",
    );
    delete out.offset_day;
  }
  if (
    input.offset_hour !== undefined &&
    interval !== undefined &&
    interval !== "day" &&
    interval !== "week"
  ) {
    ctx.error(
      "/offset_hour",
      `offset_hour of ${ctx.owner} applies to daily and weekly exports only (its interval is ${interval})`,
      "key",
    );
    delete out.offset_hour;
  }
  if (typeof out.start_at === "string" && typeof out.end_at === "string" && out.start_at >= out.end_at) {
    ctx.error(
      "/start_at",
      `start_at of ${ctx.owner} (${isoTime(out.start_at)}) must be before its end_at (${isoTime(out.end_at)})`,
    );
  }
  for (const key of ["primary_key", "version_key", "incremental_mode"] as const) {
    if (input[key] === undefined) continue;
    if (input.model !== undefined && input.model !== "hogql") {
      ctx.error(`/${key}`, `${key} of ${ctx.owner} needs model: hogql (its model is ${input.model})`, "key");
    }
  }
  if (input.incremental_mode === "MERGE" && input.primary_key === undefined) {
    ctx.error(
      "/incremental_mode",
      `${ctx.owner} merges (incremental_mode: MERGE), which needs a primary_key`,
    );
  }
  if (
    input.filters !== undefined &&
    input.model !== undefined &&
    input.model !== "events" &&
    input.filters.length > 0
  ) {
    ctx.error(
      "/filters",
      `filters of ${ctx.owner} need model: events (the service refuses them with model ${input.model})`,
      "key",
    );
  }
  if (input.destination?.type === "HTTP" && input.model !== undefined && input.model !== "events") {
    ctx.error("/model", `${ctx.owner} has an HTTP destination, which only supports model: events`);
  }
}
