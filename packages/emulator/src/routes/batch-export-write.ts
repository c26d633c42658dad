/**
 * Applies a create / PUT / PATCH body to a batch export, by the rules the seed picks: the newest
 * service's here, the 2025 ones in batch-export-write-2025.ts.
 *
 * Newest (products/batch_exports/backend/presentation/views/batch_export/exports.py): the serializer's
 * fields are validated in their order (name, model, destination, interval, paused, start_at, end_at,
 * hogql_query, hogql_modifiers, primary_key, version_key, incremental_mode, filters, timezone,
 * offset_day, offset_hour) and the first 400 is reported, but a 403 (a feature flag) stops at once,
 * like DRF collecting field errors while letting PermissionDenied escape. Then `validate()`: the
 * schedule offsets, HTTP only with events, `filters` only with events, the HogQL-only fields, the
 * HogQL query. Finally create/update: object-storage exports get `legacy_parquet_extension: false`,
 * updates pin it before merging the config, and keep the integration unless the body named one.
 */
import { isTimeZone } from "posthog-gitops-shared/posthog";
import { ApiError, collectInvalid, errorBody, invalid, required, serverError } from "../errors.js";
import {
  type Body,
  isDict,
  parseBool,
  parseChoice,
  parseDateTime,
  parseInteger,
  parseString,
  pyType,
} from "../fields.js";
import type { Ctx } from "../router.js";
import { flagOn, isNewest } from "../service.js";
import type { BatchExportRecord, WriteMode } from "../types.js";
import { applyOlderExportBody } from "./batch-export-write-2025.js";
import { type DestinationAttrs, parseNewestDestination } from "./destination-rules.js";
import { deepMerge, OBJECT_STORAGE_TYPES, writesCompressedParquet } from "./destinations.js";
import { eventsQueryError, outputColumns, unsupportedQuery } from "./hogql.js";

const INTERVALS = ["hour", "day", "week", "every 5 minutes", "every 15 minutes"] as const;
const MODELS = ["events", "persons", "sessions", "hogql"] as const;
const FILTER_TYPES = ["event", "hogql", "person"];

function permissionDenied(detail: string): ApiError {
  return new ApiError(403, errorBody("authentication_error", "permission_denied", detail));
}

/** A list of non-blank strings (DRF ListField of CharField, not empty), or null. */
function parseKeyList(value: unknown, attr: string): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) {
    throw invalid(`Expected a list of items but got type "${pyType(value)}".`, attr, "not_a_list");
  }
  if (value.length === 0) throw invalid("This list may not be empty.", attr, "empty");
  return value.map((item, i) => {
    if (item === null) throw invalid("This field may not be null.", `${attr}__${i}`, "null");
    return parseString(item, `${attr}__${i}`, { blank: false }) ?? "";
  });
}

/** products/batch_exports/backend/filters.py: null, or a list of objects with a supported `type`. */
function checkFilters(filters: unknown): void {
  if (filters === null) return;
  const fail = (detail: string) => invalid(detail, "filters");
  if (!Array.isArray(filters)) throw fail("'filters' should be an array of filters");
  for (const filter of filters) {
    if (!isDict(filter)) throw fail("Each filter must be an object");
    if ("data_interval_start" in filter || "data_interval_end" in filter) {
      throw fail(
        "'data_interval_start' and 'data_interval_end' are run attributes and not 'filters'. Trigger a backfill if you wish to manually control which periods to batch export.",
      );
    }
    if (!FILTER_TYPES.includes(filter.type as string)) {
      throw fail("Each filter must have a 'type' of one of: 'event', 'hogql', 'person'");
    }
  }
}

/** An IntegerField with bounds, nullable (offset_day / offset_hour). */
function parseBounded(value: unknown, attr: string, max: number): number | null {
  const n = parseInteger(value, attr, true);
  if (n === null) return null;
  if (n < 0) throw invalid("Ensure this value is greater than or equal to 0.", attr, "min_value");
  if (n > max) throw invalid(`Ensure this value is less than or equal to ${max}.`, attr, "max_value");
  return n;
}

/**
 * Applies `body` to `draft` (a copy of `current`, or a fresh record on create). Throws the service's
 * error; the caller keeps the draft only when nothing was thrown. Under the 2025 rules
 * batch-export-write-2025.ts applies it; the rest is the newest service's.
 */
export function applyExportBody(
  ctx: Ctx,
  draft: BatchExportRecord,
  body: Body,
  mode: WriteMode,
  current: BatchExportRecord | null,
): void {
  if (!isNewest(ctx.store)) {
    applyOlderExportBody(ctx, draft, body, mode);
    return;
  }
  const partial = mode === "patch";
  const { step, done } = collectInvalid();
  const sent = (key: string) => key in body;
  let destination: DestinationAttrs | undefined;
  let hogqlQuery: string | null | undefined;
  let filters: unknown;
  let offsetDay: number | null | undefined;
  let offsetHour: number | null | undefined;

  step(() => {
    if (!sent("name") && partial) return;
    if (body.name === undefined) throw required("name");
    draft.name = parseString(body.name, "name", { blank: false }) ?? "";
  });
  step(() => {
    if (!sent("model")) return;
    if (body.model === null) throw invalid("This field may not be null.", "model", "null");
    const model = parseChoice(body.model, "model", MODELS);
    if (model === "hogql" && !flagOn(ctx.store, "hogql-batch-exports")) {
      throw permissionDenied("HogQL batch exports are not enabled for this team.");
    }
    if (current && model !== current.model) {
      throw invalid("Changing models is not supported. Create a new batch export instead.", "model");
    }
    draft.model = model;
  });
  step(() => {
    if (!sent("destination") && partial) return;
    destination = parseNewestDestination(ctx, body.destination, partial, current);
  });
  step(() => {
    if (!sent("interval") && partial) return;
    if (body.interval === undefined) throw required("interval");
    const interval = parseChoice(body.interval, "interval", INTERVALS);
    const fast = interval !== "hour" && interval !== "day" && interval !== "week";
    if (fast && !flagOn(ctx.store, "high-frequency-batch-exports")) {
      throw permissionDenied("Higher frequency batch exports are not enabled for this team.");
    }
    draft.interval = interval;
  });
  step(() => {
    if (sent("paused")) draft.paused = parseBool(body.paused, "paused") ?? false;
  });
  step(() => {
    if (sent("start_at")) draft.start_at = parseDateTime(body.start_at, "start_at");
  });
  step(() => {
    if (sent("end_at")) draft.end_at = parseDateTime(body.end_at, "end_at");
  });
  step(() => {
    if (sent("hogql_query"))
      hogqlQuery = parseString(body.hogql_query, "hogql_query", { nullable: true, blank: false });
  });
  step(() => {
    if (!sent("hogql_modifiers")) return;
    const value = body.hogql_modifiers;
    if (value !== null && !isDict(value)) {
      throw invalid(
        "Input should be a valid dictionary or instance of HogQLQueryModifiers",
        "hogql_modifiers",
      );
    }
    draft.hogql_modifiers = value === null ? null : structuredClone(value);
  });
  step(() => {
    if (sent("primary_key")) draft.primary_key = parseKeyList(body.primary_key, "primary_key");
  });
  step(() => {
    if (sent("version_key")) draft.version_key = parseKeyList(body.version_key, "version_key");
  });
  step(() => {
    if (!sent("incremental_mode")) return;
    if (body.incremental_mode === null)
      throw invalid("This field may not be null.", "incremental_mode", "null");
    draft.incremental_mode = parseChoice(body.incremental_mode, "incremental_mode", [
      "APPEND",
      "MERGE",
    ] as const);
  });
  step(() => {
    if (!sent("filters")) return;
    checkFilters(body.filters);
    filters = body.filters;
  });
  step(() => {
    if (!sent("timezone")) return;
    if (body.timezone === null) {
      draft.timezone = "UTC";
      return;
    }
    const zone = typeof body.timezone === "string" && isTimeZone(body.timezone) ? body.timezone : undefined;
    if (zone === undefined)
      throw invalid(`"${String(body.timezone)}" is not a valid choice.`, "timezone", "invalid_choice");
    draft.timezone = zone;
  });
  // The field validators read the raw interval of the body, else the export's.
  const rawInterval = sent("interval") ? body.interval : current?.interval;
  step(() => {
    if (!sent("offset_day")) return;
    offsetDay = parseBounded(body.offset_day, "offset_day", 6);
    if (offsetDay !== null && rawInterval !== "week") {
      throw invalid("offset_day is not applicable for non-weekly intervals", "offset_day");
    }
  });
  step(() => {
    if (!sent("offset_hour")) return;
    offsetHour = parseBounded(body.offset_hour, "offset_hour", 23);
    if (offsetHour !== null && rawInterval !== "day" && rawInterval !== "week") {
      throw invalid("offset_hour is not applicable for non-daily/weekly intervals", "offset_hour");
    }
  });
  done();

  // validate(): the offsets become interval_offset only when the body has an interval.
  if (sent("interval")) {
    if (draft.interval === "day") {
      if (sent("offset_hour")) draft.interval_offset = offsetHour == null ? null : offsetHour * 3600;
      else if (!partial) draft.interval_offset = null;
    } else if (draft.interval === "week") {
      if (sent("offset_day") || sent("offset_hour")) {
        draft.interval_offset = (offsetDay ?? 0) * 86_400 + (offsetHour ?? 0) * 3600;
      } else if (!partial) draft.interval_offset = null;
    } else draft.interval_offset = null;
  } else if (sent("offset_day") || sent("offset_hour")) {
    // The offsets reach the model as attributes it cannot set (read-only properties) [inferred: 500].
    throw serverError();
  }
  const model = current ? current.model : (draft.model ?? "events");
  if (destination?.type === "HTTP" && model !== "events") {
    throw invalid("HTTP batch exports only support the events model");
  }
  const onlyFor = (name: string, value: unknown, wanted: string) => {
    if (value === null || value === undefined || model === wanted) return;
    throw invalid(`'${name}' is only supported for '${wanted}' not '${model}' model`, name);
  };
  onlyFor("filters", filters, "events");
  onlyFor("hogql_modifiers", sent("hogql_modifiers") ? body.hogql_modifiers : undefined, "hogql");
  onlyFor("primary_key", sent("primary_key") ? body.primary_key : undefined, "hogql");
  onlyFor("version_key", sent("version_key") ? body.version_key : undefined, "hogql");
  if (model === "events" && hogqlQuery != null) {
    const grandfathered = ctx.store.data.batch_exports.some(
      (b) => b.team_id === ctx.project.id && b.schema !== null,
    );
    if (grandfathered) {
      const error = eventsQueryError(hogqlQuery);
      // Raised from `validate()` with a bare message: a non-field error (no `attr`).
      if (error) throw invalid(error);
    } else onlyFor("hogql_query", hogqlQuery, "hogql");
  } else onlyFor("hogql_query", hogqlQuery, "hogql");
  if (model === "hogql")
    checkHogql(draft, hogqlQuery === undefined ? (current?.hogql_query ?? null) : hogqlQuery);
  if (filters !== undefined) draft.filters = filters as unknown[] | null;
  if (hogqlQuery !== undefined) draft.hogql_query = hogqlQuery;

  if (destination) {
    if (!current) {
      const config = destination.config;
      if (OBJECT_STORAGE_TYPES.has(destination.type) && !("legacy_parquet_extension" in config)) {
        config.legacy_parquet_extension = false;
      }
      draft.destination = {
        type: destination.type,
        config,
        integration: destination.integration?.id ?? null,
      };
    } else {
      const stored = { ...current.destination.config };
      if (OBJECT_STORAGE_TYPES.has(destination.type) && !("legacy_parquet_extension" in stored)) {
        stored.legacy_parquet_extension = writesCompressedParquet(stored);
      }
      draft.destination = {
        type: destination.type,
        config: deepMerge(stored, destination.config),
        integration:
          "integration" in destination
            ? (destination.integration?.id ?? null)
            : current.destination.integration,
      };
    }
  }
}

/** `_validate_hogql_query` of the hogql model: required, usable, keys among the output columns. */
function checkHogql(draft: BatchExportRecord, query: string | null): void {
  if (query === null) {
    throw invalid("'hogql_query' is required when 'model' is 'hogql'", "hogql_query");
  }
  const unsupported = unsupportedQuery(query);
  if (unsupported) throw invalid(unsupported, "hogql_query");
  const columns = outputColumns(query);
  if (!draft.primary_key?.length && draft.incremental_mode === "MERGE") {
    throw invalid("'primary_key' is required when 'incremental_mode' is 'MERGE'", "primary_key");
  }
  if (!columns) return;
  for (const name of ["primary_key", "version_key"] as const) {
    const missing = (draft[name] ?? []).filter((c) => !columns.has(c));
    if (missing.length > 0) {
      throw invalid(
        `'${name}' contains columns that are not present in the query: ${missing.join(",")}`,
        name,
      );
    }
  }
}
