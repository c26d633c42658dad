/**
 * Plans one declared batch export against its live match: create, update (secrets only on rotation or
 * when the destination otherwise changes), pause / unpause, delete of tombstones, and the replacement
 * (create + delete) that a destination type or model change needs, only with --force. `paused` is
 * reconciled by the pause / unpause endpoints, never in a body after create.
 */
import type { Declared } from "../../config/types.js";
import { type KindPlanContext, makeAction } from "../../plan/index.js";
import { toSecretRef } from "../../plan/secrets.js";
import type { Action, FieldChange, LiveObject, ObjectRef } from "../../plan/types.js";
import { deepEqual, getPath, isPlainObject, setPath } from "../../plan/values.js";
import type { BatchExport } from "../../service/types.js";
import { looseEqual, normaliseInstant, normaliseQuery, normaliseText } from "../shared/normalise.js";
import { LONG_TEXT_FIELDS, unifiedDiff } from "../shared/text-diff.js";
import type { DesiredBatchExport } from "./declare.js";
import { isSecretPath } from "./destinations.js";
import { type BatchExportState, batchExportState } from "./live.js";
import { gapBackfillCommand } from "./schedule.js";

const CONFIG_PREFIX = "destination.config.";

export function planBatchExport(
  declared: Declared,
  liveObject: LiveObject | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
): void {
  const desired = declared as DesiredBatchExport;
  const current = liveObject as BatchExport | undefined;
  if (desired.deleted) {
    if (current) ctx.sink.actions.push(deleteAction(ref, batchExportState(current)));
  } else if (current) planExisting(desired, current, ref, ctx);
  else if (desired.id !== undefined) {
    ctx.sink.errors.push({
      message: `batch export "${ref.name}": the pinned id ${desired.id} is not live (a deleted batch export cannot be restored); remove the \`id\` to create a new one, or add \`deleted: true\``,
      source: desired.source,
    });
  } else planCreate(desired, ref, ctx, []);
}

export function pruneBatchExport(live: LiveObject, ref: ObjectRef): Action {
  return deleteAction(ref, batchExportState(live as BatchExport));
}

function deleteAction(ref: ObjectRef, state: BatchExportState): Action {
  return makeAction("delete", ref, { before: { ...state } });
}

/** Changes for the declared fields that differ from the live state; secrets are never compared. */
export function compareBatchExport(desired: DesiredBatchExport, live: BatchExportState): FieldChange[] {
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
      scalar(`${CONFIG_PREFIX}${path}`, after, before, looseEqual(after, before));
    }
  }
  return changes;
}

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
    for (const secret of secretChanges(desired)) {
      setPath(config, secret.path.slice(CONFIG_PREFIX.length), secret.after);
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

function planCreate(desired: DesiredBatchExport, ref: ObjectRef, ctx: KindPlanContext, warnings: string[]) {
  if (!desired.destination) {
    ctx.sink.errors.push({
      message: `batch export "${ref.name}": a destination is needed to create it`,
      source: desired.source,
    });
    return;
  }
  const after = createSide(desired);
  const changes: FieldChange[] = Object.entries(after)
    .filter(([path]) => path !== "destination")
    .map(([path, value]) => ({ path, after: value }));
  changes.push({ path: "destination.type", after: desired.destination.type });
  const integration = desired.destination.integration_id;
  if (integration !== undefined) changes.push({ path: "destination.integration_id", after: integration });
  for (const [key, value] of Object.entries(desired.destination.config)) {
    changes.push({ path: `${CONFIG_PREFIX}${key}`, after: value });
  }
  changes.push(...secretChanges(desired));
  const createRef: ObjectRef = { ...ref };
  delete createRef.id;
  ctx.sink.actions.push(makeAction("create", createRef, { after, changes, warnings }));
}

function planExisting(
  desired: DesiredBatchExport,
  current: BatchExport,
  ref: ObjectRef,
  ctx: KindPlanContext,
) {
  const { options, sink } = ctx;
  const state = batchExportState(current);
  const changes = compareBatchExport(desired, state);
  const refused = changes.filter((c) => c.path === "destination.type" || c.path === "model");
  if (refused.length > 0) {
    const what = refused.map((c) => `${c.path} from ${String(c.before)} to ${String(c.after)}`).join(" and ");
    if (!options.force) {
      sink.errors.push({
        message: `batch export "${ref.name}": the service cannot change ${what}; rerun with --force to delete the export and create a new one (its run history is lost)`,
        source: desired.source,
      });
      return;
    }
    const warning = `replaces export ${current.id} (${what}): the new export is created, then the old one deleted; run history stays with the old one`;
    planCreate(desired, ref, ctx, [warning]);
    sink.actions.push(deleteAction(ref, state));
    return;
  }
  const destinationChanging = changes.some((c) => c.path.startsWith("destination."));
  if (options.rotateSecrets || destinationChanging) changes.push(...secretChanges(desired));
  if (changes.length > 0) {
    const warnings: string[] = [];
    const interval = changes.find((c) => c.path === "interval");
    if (interval) {
      warnings.push(
        `the interval changes from ${String(interval.before)} to ${String(interval.after)}: the schedule and the size of each exported batch change`,
      );
    }
    const { before, after } = updateSides(
      changes,
      desired.destination?.type ?? state.destination.type,
      desired.destination?.integration_id,
    );
    sink.actions.push(makeAction("update", ref, { before, after, changes, warnings }));
  }
  planPause(desired, current, ref, ctx);
}

function planPause(desired: DesiredBatchExport, current: BatchExport, ref: ObjectRef, ctx: KindPlanContext) {
  const { options, sink } = ctx;
  if (desired.paused === undefined || desired.paused === current.paused) return;
  if (desired.paused) {
    sink.actions.push(makeAction("pause", ref, { before: { paused: false }, after: { paused: true } }));
    return;
  }
  const since = current.last_paused_at;
  const after: Record<string, unknown> = { paused: false };
  const warnings: string[] = [];
  if (desired.backfill_on_unpause) {
    after.backfill = true;
    sink.notes.push({
      severity: "note",
      message: `the paused gap${since ? ` since ${since}` : ""} will be backfilled on unpause`,
      object: ref,
    });
  } else if (since) {
    // The exact command, in the window form `backfill` accepts for this interval (dates for daily and
    // weekly exports); none when the pause missed no whole interval.
    const command = gapBackfillCommand(
      desired.name,
      current.interval,
      since,
      options.now,
      current.offset_day ?? 0,
    );
    if (command) {
      warnings.push(
        `exports for [${since}, ${options.now.toISOString()}) will not be exported; to export them, run: ${command}`,
      );
    }
  }
  sink.actions.push(makeAction("unpause", ref, { before: { paused: true }, after, warnings }));
}
