/**
 * The 2025 rules (`service.rules: "2025"`) for a create / PUT / PATCH body of a batch export: required
 * fields on POST/PUT, the older destination types (legacy `S3` with inline keys included) and config
 * rules, PATCH deep-merges the config (omitted secrets are kept) and refuses type or model changes, HTTP
 * only with the events model. `integration_id` / `integration` (shown as `destination.integration`) is
 * an Integration of the project and is kept when a write omits it, but a Databricks / AzureBlob
 * destination write without one is refused (the service validates the submitted destination alone,
 * so this holds for PATCH too).
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
import type { Ctx } from "../router.js";
import { flagOn } from "../service.js";
import type { BatchExportRecord, WriteMode } from "../types.js";
import { deepMerge, OLDER_INTEGRATION_REQUIRED, OLDER_TYPES, validateOlderConfig } from "./destinations.js";
import { resolveIntegration } from "./integrations.js";

const KIND_REQUIRED: Record<string, [string, string]> = {
  Databricks: ["databricks", "Integration is not a Databricks integration."],
  AzureBlob: ["azure-blob", "Integration is not an Azure Blob integration."],
};

const INTERVALS = ["hour", "day", "week", "every 5 minutes", "every 15 minutes"] as const;
const MODELS = ["events", "persons", "sessions"] as const;

export function applyOlderExportBody(ctx: Ctx, b: BatchExportRecord, body: Body, mode: WriteMode): void {
  const complete = mode !== "patch";
  if ("name" in body || complete) {
    if (body.name === undefined) throw required("name");
    b.name = parseString(body.name, "name", { blank: false }) ?? "";
  }
  if ("model" in body) {
    const model = body.model === null ? null : parseChoice(body.model, "model", MODELS);
    if (mode !== "create" && model !== b.model) {
      throw invalid("Changing models is not supported. Create a new batch export instead.", "model");
    }
    b.model = model;
  }
  if ("destination" in body || complete) applyDestination(ctx, b, body.destination, mode);
  if ("interval" in body || complete) {
    if (body.interval === undefined) throw required("interval");
    const interval = parseChoice(body.interval, "interval", INTERVALS);
    const fast = interval !== "hour" && interval !== "day" && interval !== "week";
    if (fast && !flagOn(ctx.store, "high-frequency-batch-exports")) {
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

function applyDestination(ctx: Ctx, b: BatchExportRecord, value: unknown, mode: WriteMode): void {
  if (value === undefined) throw required("destination");
  if (!isDict(value)) {
    throw invalid(`Invalid data. Expected a dictionary, but got ${pyType(value)}.`, "destination");
  }
  if (value.type === undefined) throw required("destination__type");
  const type = parseChoice(value.type, "destination__type", OLDER_TYPES);
  if (mode !== "create" && type !== b.destination.type) {
    throw invalid(
      `Cannot change destination type from '${b.destination.type}' to '${type}'. Delete this batch export and create a new one with the new destination type.`,
      "destination",
    );
  }
  let integration: number | null | undefined;
  for (const key of ["integration", "integration_id"] as const) {
    if (key in value) integration = resolveIntegration(ctx, value[key], `destination__${key}`)?.id ?? null;
  }
  const rawConfig = value.config === undefined ? {} : value.config;
  if (!isDict(rawConfig)) {
    throw invalid(
      `Invalid data. Expected a dictionary, but got ${pyType(rawConfig)}.`,
      "destination__config",
    );
  }
  const config = structuredClone(rawConfig);
  validateOlderConfig(type, config, mode !== "patch");
  const needs = OLDER_INTEGRATION_REQUIRED[type];
  if (needs !== undefined && (integration === undefined || integration === null)) {
    throw invalid(needs, "destination");
  }
  const kind = KIND_REQUIRED[type];
  if (kind && integration !== undefined && integration !== null) {
    if (ctx.store.integration(ctx.project.id, integration)?.kind !== kind[0])
      throw invalid(kind[1], "destination");
  }
  b.destination.type = type;
  b.destination.config = mode === "create" ? config : deepMerge(b.destination.config, config);
  if (integration !== undefined) b.destination.integration = integration;
}
