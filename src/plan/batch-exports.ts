/**
 * Plans one project's declared batch exports against the live ones: create, update (secrets only on
 * rotation or when the destination otherwise changes), pause / unpause, delete of tombstones, and the
 * replacement (delete + create) that a destination type or model change needs, only with --force.
 */
import type { DesiredBatchExport } from "../config/types.js";
import {
  type BatchExportState,
  batchExportHandler,
  createSide,
  secretChanges,
  updateSides,
} from "../kinds/batch-export.js";
import { gapBackfillCommand } from "../ops/shell.js";
import type { BatchExport } from "../service/types.js";
import { type BuildOptions, declaredRef, describeObject, makeAction, type PlanSink } from "./context.js";
import type { Matching } from "./match.js";
import type { FieldChange, LiveProject, ObjectRef } from "./types.js";

export function planBatchExports(
  matching: Matching<DesiredBatchExport, BatchExport>,
  live: LiveProject,
  options: BuildOptions,
  sink: PlanSink,
): void {
  for (const { desired, live: current } of matching.pairs) {
    const ref = declaredRef("batch_export", live.project, desired, current);
    if (desired.deleted) {
      if (current) sink.actions.push(deleteAction(ref, batchExportHandler.normaliseLive(current)));
    } else if (current) planExisting(desired, current, ref, options, sink);
    else if (desired.id !== undefined) {
      sink.errors.push({
        message: `${describeObject(ref)}: the pinned id ${desired.id} is not live (a deleted batch export cannot be restored); remove the \`id\` to create a new one, or add \`deleted: true\``,
        source: desired.source,
      });
    } else planCreate(desired, ref, sink, []);
  }
}

function deleteAction(ref: ObjectRef, state: BatchExportState) {
  return makeAction("delete", ref, { before: { ...state } });
}

function planCreate(desired: DesiredBatchExport, ref: ObjectRef, sink: PlanSink, warnings: string[]): void {
  if (!desired.destination) {
    sink.errors.push({
      message: `${describeObject(ref)}: a destination is needed to create it`,
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
    changes.push({ path: `destination.config.${key}`, after: value });
  }
  changes.push(...secretChanges(desired));
  const createRef: ObjectRef = { ...ref };
  delete createRef.id;
  sink.actions.push(makeAction("create", createRef, { after, changes, warnings }));
}

function planExisting(
  desired: DesiredBatchExport,
  current: BatchExport,
  ref: ObjectRef,
  options: BuildOptions,
  sink: PlanSink,
): void {
  const state = batchExportHandler.normaliseLive(current);
  const changes = batchExportHandler.compare(desired, state);
  const refused = changes.filter((c) => c.path === "destination.type" || c.path === "model");
  if (refused.length > 0) {
    const what = refused.map((c) => `${c.path} from ${String(c.before)} to ${String(c.after)}`).join(" and ");
    if (!options.force) {
      sink.errors.push({
        message: `${describeObject(ref)}: the service cannot change ${what}; rerun with --force to delete the export and create a new one (its run history is lost)`,
        source: desired.source,
      });
      return;
    }
    const warning = `replaces export ${current.id} (${what}): the new export is created, then the old one deleted; run history stays with the old one`;
    planCreate(desired, ref, sink, [warning]);
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
  planPause(desired, current, ref, options, sink);
}

function planPause(
  desired: DesiredBatchExport,
  current: BatchExport,
  ref: ObjectRef,
  options: BuildOptions,
  sink: PlanSink,
): void {
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
