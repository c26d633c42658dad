/**
 * Applies a create / PUT / PATCH body to a batch export record with the service's validation: required
 * fields on POST/PUT, destination type enum and per-type config rules, PATCH deep-merges the config
 * (omitted secrets are kept) and refuses type or model changes, HTTP only with the events model.
 * `integration_id` (write-only, shown as `destination.integration`) is kept when a write omits it, but
 * like the service, a Databricks / AzureBlob destination write without one is refused (the service
 * validates the submitted destination alone, so this holds for PATCH too). Any positive id is taken
 * as an existing Integration of the team.
 */
import { ApiError, errorBody, invalid, required } from "../errors.js";
import {
  type Body,
  isDict,
  parseBool,
  parseChoice,
  parseDateTime,
  parseList,
  parseString,
  pyType,
} from "../fields.js";
import type { BatchExportRecord } from "../types.js";
import { DESTINATION_TYPES, deepMerge, INTEGRATION_REQUIRED, validateConfig } from "./destinations.js";

export type WriteMode = "create" | "put" | "patch";

const INTERVALS = ["hour", "day", "week", "every 5 minutes", "every 15 minutes"] as const;
const MODELS = ["events", "persons", "sessions"] as const;

export function applyExportBody(b: BatchExportRecord, body: Body, mode: WriteMode): void {
  const complete = mode !== "patch";
  if ("name" in body || complete) {
    if (body.name === undefined) throw required("name");
    b.name = parseString(body.name, "name", { blank: false }) ?? "";
  }
  if ("model" in body) {
    const model = body.model === null ? null : parseChoice(body.model, "model", MODELS);
    if (mode !== "create" && model !== b.model) {
      throw invalid("Changing models is not supported. Create a new batch export instead.");
    }
    b.model = model;
  }
  if ("destination" in body || complete) applyDestination(b, body.destination, mode);
  if ("interval" in body || complete) {
    if (body.interval === undefined) throw required("interval");
    const interval = parseChoice(body.interval, "interval", INTERVALS);
    if (interval !== "hour" && interval !== "day" && interval !== "week" && interval !== b.interval) {
      throw new ApiError(
        403,
        errorBody(
          "authentication_error",
          "permission_denied",
          "Higher frequency batch exports are not enabled for this team.",
        ),
      );
    }
    b.interval = interval;
  }
  if ("paused" in body) b.paused = parseBool(body.paused, "paused") ?? false;
  if ("start_at" in body) b.start_at = parseDateTime(body.start_at, "start_at");
  if ("end_at" in body) b.end_at = parseDateTime(body.end_at, "end_at");
  if ("filters" in body) b.filters = parseList(body.filters, "filters", true);
  if ("hogql_query" in body && body.hogql_query !== null) {
    const query = parseString(body.hogql_query, "hogql_query") ?? "";
    if (!/^\s*select\b[\s\S]+\bfrom\s+events\b/i.test(query))
      throw invalid("Failed to parse query", "hogql_query");
    b.hogql_query = query;
  }
  if (b.destination.type === "HTTP" && b.model !== "events") {
    throw invalid("HTTP batch exports only support the events model");
  }
}

function applyDestination(b: BatchExportRecord, value: unknown, mode: WriteMode): void {
  if (value === undefined) throw required("destination");
  if (!isDict(value)) {
    throw invalid(`Invalid data. Expected a dictionary, but got ${pyType(value)}.`, "destination");
  }
  if (value.type === undefined) throw required("destination__type");
  const type = parseChoice(value.type, "destination__type", DESTINATION_TYPES);
  if (mode !== "create" && type !== b.destination.type) {
    throw invalid(
      `Cannot change destination type from '${b.destination.type}' to '${type}'. Delete this batch export and create a new one with the new destination type.`,
    );
  }
  const integration = "integration_id" in value ? parseIntegration(value.integration_id) : undefined;
  const rawConfig = value.config === undefined ? {} : value.config;
  if (!isDict(rawConfig)) {
    throw invalid(
      `Invalid data. Expected a dictionary, but got ${pyType(rawConfig)}.`,
      "destination__config",
    );
  }
  const config = structuredClone(rawConfig);
  validateConfig(type, config, mode !== "patch");
  const needs = INTEGRATION_REQUIRED[type];
  if (needs !== undefined && (integration === undefined || integration === null)) {
    throw invalid(needs, "destination");
  }
  b.destination.type = type;
  b.destination.config = mode === "create" ? config : deepMerge(b.destination.config, config);
  if (integration !== undefined) b.destination.integration = integration;
}

/** An Integration primary key as the service's related field takes it: null, an int or a digit string. */
function parseIntegration(value: unknown): number | null {
  const attr = "destination__integration_id";
  if (value === null) return null;
  const id = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof id !== "number" || !Number.isInteger(id)) {
    throw invalid(`Incorrect type. Expected pk value, received ${pyType(value)}.`, attr, "incorrect_type");
  }
  if (id < 1) throw invalid(`Invalid pk "${id}" - object does not exist.`, attr, "does_not_exist");
  return id;
}
