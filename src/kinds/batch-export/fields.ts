/**
 * A batch export's fields: the one place each is named (SPEC §2). name (through an id pin), model,
 * interval, the schedule's timezone and offsets, start_at / end_at, hogql_query (with the hogql
 * model's primary_key, version_key and incremental_mode) and filters are compared by the table;
 * `paused` is reconciled by the pause / unpause verbs; the destination (its type, the declared
 * non-secret config keys, the integration, write-only secrets) by the plan hook (plan.ts). The
 * schedule's fields and the hogql ones are `newer`: older services leave them out of their answers.
 */
import { choice, type DesiredOf, field, fieldTable, flag, instant, integer, text } from "../define/index.js";
import { normaliseQuery, normaliseText } from "../shared/normalise.js";
import { declareDestination, declareInstant, declareTimezone } from "./declare.js";
import type { DesiredDestination, DestinationInput } from "./service-rules/destinations.js";
import { DESTINATION_SCHEMA } from "./service-rules/schema.js";

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

const columns = (description: string) =>
  field<string[]>(
    { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, description },
    { newer: true, pull: "present" },
  );

export const batchExportFields = fieldTable({
  name: text(
    "Batch export name: its identity within the project unless `id` is given. Unique per project.",
    { minLength: 1 },
    { required: true },
  ),
  id: text("The service's batch export UUID: pins identity across renames.", {
    pattern: UUID,
    "x-expect": "a UUID",
  }),
  model: choice(
    ["events", "persons", "sessions", "hogql"],
    "What is exported (default events). hogql exports the rows of hogql_query (behind the service's hogql-batch-exports flag). The service cannot change it after create.",
    { live: (answer) => answer.model ?? "events" },
  ),
  interval: choice(
    ["hour", "day", "week", "every 5 minutes", "every 15 minutes"],
    "How often a batch runs. The sub-hour intervals are behind a service feature flag.",
  ),
  timezone: field<string | null>(
    {
      type: ["string", "null"],
      description:
        "IANA time zone of the schedule, e.g. Europe/Berlin (newest service; default and null: UTC).",
    },
    {
      declare: declareTimezone,
      normalise: (value) => value ?? "UTC",
      toYaml: (value) => value ?? "UTC",
      newer: true,
    },
  ),
  offset_day: integer(
    "Weekly exports: the day they run, 0 = Sunday … 6 = Saturday (newest service; default 0).",
    { minimum: 0, maximum: 6 },
    { newer: true, pull: "present" },
  ),
  offset_hour: integer(
    "Daily and weekly exports: the hour they run, 0–23 in the schedule's timezone (newest service; default 0).",
    { minimum: 0, maximum: 23 },
    { newer: true, pull: "present" },
  ),
  paused: flag("Reconciled with the pause / unpause endpoints.", { compare: "none" }),
  backfill_on_unpause: flag(
    "On unpause, also export the paused gap (only when the service knows when the export was paused; otherwise the plan gives the backfill command).",
    { compare: "none", live: false },
  ),
  start_at: instant(
    "Start of the schedule: ISO-8601 date-time with a timezone (Z or +hh:mm); null clears it.",
    { declare: declareInstant },
  ),
  end_at: instant("End of the schedule: ISO-8601 date-time with a timezone (Z or +hh:mm); null clears it.", {
    declare: declareInstant,
  }),
  hogql_query: text(
    "HogQL SELECT choosing the exported rows: required with model hogql (may use {data_interval_start} / {data_interval_end}); the newest service accepts it with model events only for projects that already have such exports.",
    {},
    {
      // The service ignores whitespace; the update sends the text without a YAML block's last newline.
      normalise: normaliseQuery,
      send: normaliseText,
      compare: "text",
      pull: "nonEmpty",
    },
  ),
  primary_key: columns("Model hogql only: columns of hogql_query that identify a row (needed for MERGE)."),
  version_key: columns("Model hogql only: columns of hogql_query that order versions of a row."),
  incremental_mode: choice(
    ["APPEND", "MERGE"],
    "Model hogql only: APPEND rows (default) or MERGE them on primary_key.",
    { newer: true, pull: "present" },
  ),
  filters: field<Record<string, unknown>[], unknown[]>(
    {
      type: "array",
      description:
        "Property filters (model events only), e.g. {key: $browser, operator: exact, type: event, value: [Firefox]}.",
      items: { type: "object" },
    },
    { normalise: (value) => value ?? [], pull: "nonEmpty" },
  ),
  destination: field<DestinationInput, DesiredDestination>(DESTINATION_SCHEMA, {
    declare: declareDestination,
    compare: "none",
    live: (answer) => {
      const destination = answer.destination as { type: string; config?: unknown; integration?: unknown };
      return {
        type: destination.type,
        config: destination.config ?? {},
        integration: destination.integration ?? null,
      };
    },
  }),
  deleted: flag("Tombstone: delete the batch export (idempotent)."),
});

export type Model = "events" | "persons" | "sessions" | "hogql";
export type Interval = "hour" | "day" | "week" | "every 5 minutes" | "every 15 minutes";

/** A declared batch export: timestamps as UTC instants, secrets as `SecretValue`s in the destination. */
export type DesiredBatchExport = DesiredOf<typeof batchExportFields.fields, "batch_export"> & { id?: string };
