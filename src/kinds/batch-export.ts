/**
 * Batch exports. Managed fields: name (through an id pin), model, interval, start_at, end_at,
 * hogql_query, filters, the declared non-secret keys of destination.config and a declared
 * destination.integration_id (write-only; compared with the live `destination.integration`). `paused` is
 * reconciled by the pause / unpause endpoints, never in a body after create. Secrets are write-only
 * (`SecretRef`s).
 */
import type { DesiredBatchExport } from "../config/types.js";
import type { Action, FieldChange } from "../plan/types.js";
import type { BatchExport } from "../service/types.js";
import type { Env, KindHandler, PulledObject } from "./handler.js";
import {
  deepEqual,
  isPlainObject,
  looseEqual,
  normaliseInstant,
  normaliseQuery,
  normaliseText,
} from "./normalise.js";
import {
  getPath,
  isSecretPath,
  pullSecretPaths,
  resolveSecrets,
  secretVariableName,
  setPath,
  toSecretRef,
} from "./secrets.js";
import { LONG_TEXT_FIELDS, unifiedDiff } from "./text-diff.js";

/** The comparable shape of a live batch export (config is secret-free: the service strips secrets). */
export interface BatchExportState {
  id: string;
  name: string;
  model: string;
  interval: string;
  paused: boolean;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string;
  filters: unknown[];
  destination: { type: string; config: Record<string, unknown>; integration: number | null };
}

export interface BatchExportExtras {
  /** Prefix of the secret variable names `pull` derives; defaults to the export's name. */
  variablePrefix?: string;
}

const CONFIG_PREFIX = "destination.config.";

/** Leaf paths of a declared config: nested objects are walked, arrays and scalars are leaves. */
function leafPaths(config: Record<string, unknown>, prefix = ""): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (isPlainObject(value) && Object.keys(value).length > 0) paths.push(...leafPaths(value, path));
    else paths.push(path);
  }
  return paths;
}

function change(path: string, before: unknown, after: unknown): FieldChange {
  const c: FieldChange = { path, after };
  if (before !== undefined) c.before = before;
  if (LONG_TEXT_FIELDS.has(path)) c.diff = unifiedDiff(String(before ?? ""), String(after ?? ""));
  return c;
}

/** The secrets of a desired export as write-only changes (no `before`). */
export function secretChanges(desired: DesiredBatchExport): FieldChange[] {
  const secrets = desired.destination?.secrets ?? {};
  return Object.keys(secrets)
    .sort()
    .map((path) => ({
      path: `${CONFIG_PREFIX}${path}`,
      after: toSecretRef(secrets[path] as NonNullable<(typeof secrets)[string]>),
      secret: true,
    }));
}

/** The full create body, secrets as `SecretRef`s. */
export function createSide(desired: DesiredBatchExport): Record<string, unknown> {
  const body: Record<string, unknown> = { name: desired.name };
  if (desired.model !== undefined) body.model = desired.model;
  if (desired.interval !== undefined) body.interval = desired.interval;
  if (desired.paused !== undefined) body.paused = desired.paused;
  if (desired.start_at !== undefined) body.start_at = desired.start_at;
  if (desired.end_at !== undefined) body.end_at = desired.end_at;
  if (desired.hogql_query !== undefined) body.hogql_query = desired.hogql_query;
  if (desired.filters !== undefined) body.filters = desired.filters;
  if (desired.destination) {
    const config = structuredClone(desired.destination.config);
    for (const change of secretChanges(desired)) {
      setPath(config, change.path.slice(CONFIG_PREFIX.length), change.after);
    }
    const destination: Record<string, unknown> = { type: desired.destination.type, config };
    if (desired.destination.integration_id !== undefined) {
      destination.integration_id = desired.destination.integration_id;
    }
    body.destination = destination;
  }
  return body;
}

/**
 * `before` / `after` of an update: only the changed fields, nested as the PATCH body nests them. A
 * destination always carries its `type` (the service requires it in a PATCH) and the declared
 * `integration_id` (the service refuses a Databricks / AzureBlob destination write without one).
 */
export function updateSides(changes: FieldChange[], type: string | undefined, integrationId?: number) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const c of changes) {
    if (!c.secret) setPath(before, c.path, c.before ?? null);
    setPath(after, c.path, c.after);
  }
  if (isPlainObject(after.destination)) {
    if (type !== undefined) after.destination.type = type;
    if (integrationId !== undefined) after.destination.integration_id = integrationId;
  }
  return { before, after };
}

export const batchExportHandler: KindHandler<
  DesiredBatchExport,
  BatchExport,
  BatchExportState,
  BatchExportExtras
> = {
  kind: "batch_export",
  serverOwnedFields: [
    "id",
    "team_id",
    "created_at",
    "last_updated_at",
    "last_paused_at",
    "latest_runs",
    "schema",
    "destination.integration",
  ],

  normaliseLive(live) {
    return {
      id: live.id,
      name: live.name,
      model: live.model ?? "events",
      interval: live.interval,
      paused: live.paused,
      start_at: normaliseInstant(live.start_at),
      end_at: normaliseInstant(live.end_at),
      hogql_query: normaliseQuery(live.hogql_query),
      filters: live.filters ?? [],
      destination: {
        type: live.destination.type,
        config: live.destination.config ?? {},
        integration: live.destination.integration ?? null,
      },
    };
  },

  compare(desired, live) {
    const changes: FieldChange[] = [];
    const scalar = (path: string, after: unknown, before: unknown, equal: boolean) => {
      if (after !== undefined && !equal) changes.push(change(path, before, after));
    };
    scalar("name", desired.name, live.name, desired.name === live.name);
    scalar("model", desired.model, live.model, desired.model === live.model);
    scalar("interval", desired.interval, live.interval, desired.interval === live.interval);
    for (const field of ["start_at", "end_at"] as const) {
      const after = desired[field];
      if (after === undefined) continue;
      scalar(field, after, live[field], normaliseInstant(after) === live[field]);
    }
    if (desired.hogql_query !== undefined) {
      const same = normaliseQuery(desired.hogql_query) === live.hogql_query;
      scalar("hogql_query", normaliseText(desired.hogql_query), live.hogql_query, same);
    }
    scalar("filters", desired.filters, live.filters, deepEqual(desired.filters ?? [], live.filters));
    const destination = desired.destination;
    if (destination) {
      const type = destination.type;
      scalar("destination.type", type, live.destination.type, type === live.destination.type);
      const integration = destination.integration_id;
      const liveIntegration = live.destination.integration;
      scalar("destination.integration_id", integration, liveIntegration, integration === liveIntegration);
      for (const path of leafPaths(destination.config)) {
        if (isSecretPath(type, path)) continue;
        const after = getPath(destination.config, path);
        const before = getPath(live.destination.config, path);
        scalar(`destination.config.${path}`, after, before, looseEqual(after, before));
      }
    }
    return changes;
  },

  requestBody(action: Action, env: Env) {
    const where = `batch export "${action.object.name}"`;
    switch (action.action) {
      case "create":
      case "update":
        return resolveSecrets({ ...action.after }, env, where);
      case "unpause":
        return action.after?.backfill === true ? { backfill: true } : undefined;
      default:
        return undefined;
    }
  },

  toInput(live, extras): PulledObject {
    // model, interval and paused are written even at their defaults, so that a pause or a change made
    // in the UI shows up as drift in the next plan.
    const input: Record<string, unknown> = { name: live.name, id: live.id };
    input.model = live.model ?? "events";
    input.interval = live.interval;
    input.paused = live.paused;
    if (live.start_at) input.start_at = normaliseInstant(live.start_at)?.replace(".000000Z", "Z");
    if (live.end_at) input.end_at = normaliseInstant(live.end_at)?.replace(".000000Z", "Z");
    if (live.hogql_query && live.hogql_query.trim() !== "") input.hogql_query = live.hogql_query;
    if (live.filters && live.filters.length > 0) input.filters = live.filters;
    const config = structuredClone(live.destination.config ?? {});
    const variables: string[] = [];
    for (const path of pullSecretPaths(live.destination.type, config)) {
      const variable = secretVariableName(extras.variablePrefix ?? live.name, path);
      setPath(config, path, `\${${variable}}`);
      variables.push(variable);
    }
    const destination: Record<string, unknown> = { type: live.destination.type };
    const integration = live.destination.integration;
    if (integration !== undefined && integration !== null) destination.integration_id = integration;
    destination.config = config;
    input.destination = destination;
    return { input, variables };
  },
};
