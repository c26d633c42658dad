/**
 * Plans one declared dashboard against its live match: create, update (including rename through a pin),
 * soft delete of tombstones, restore of a pinned dashboard missing from the live list, collaborator
 * removes / adds and the sharing switch. Writes the service would silently ignore (tags without the
 * tagging feature, collaborators without access control) become notes instead of perpetual changes.
 */
import type { Declared } from "../../config/types.js";
import { type KindPlanContext, makeAction } from "../../plan/index.js";
import type { Action, FieldChange, LiveObject, ObjectRef } from "../../plan/types.js";
import { deepEqual } from "../../plan/values.js";
import type { DashboardBasic } from "../../service/types.js";
import { normaliseTags, normaliseText } from "../shared/normalise.js";
import { LONG_TEXT_FIELDS, unifiedDiff } from "../shared/text-diff.js";
import { type ResolvedCollaborator, resolveCollaborators, uncheckedNote } from "./collaborators.js";
import type { DesiredDashboard } from "./declare.js";
import { type DashboardState, dashboardState, type LiveDashboards } from "./live.js";

const TAGS_IGNORED = "the organization lacks the tagging feature: the service ignores tags";
const COLLABORATORS_IGNORED =
  "collaborators are not reconciled: the organization lacks the access control feature, so the dashboard's effective restriction level stays everyone (21)";

const COMPARED = ["name", "description", "pinned", "tags", "restriction_level"] as const;
type Compared = (typeof COMPARED)[number];

export function planDashboard(
  declared: Declared,
  liveObject: LiveObject | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
): void {
  const desired = declared as DesiredDashboard;
  const current = liveObject as DashboardBasic | undefined;
  const live = ctx.live as LiveDashboards;
  if (desired.deleted) {
    if (current) {
      ctx.sink.actions.push(makeAction("soft_delete", ref, { before: { ...dashboardState(current) } }));
    }
  } else if (current) planExisting(desired, current, ref, live, ctx);
  else if (desired.id !== undefined) planRestore(desired, ref, ctx);
  else planCreate(desired, ref, ctx);
}

export function pruneDashboard(live: LiveObject, ref: ObjectRef): Action {
  return makeAction("soft_delete", ref, { before: { ...dashboardState(live as DashboardBasic) } });
}

/** Tags are written (an update changing them, or a create declaring some) or collaborators added. */
export function dashboardsNeedFeatures(actions: readonly Action[]): boolean {
  return actions.some(
    (a) =>
      a.action === "add_collaborator" ||
      (a.action === "update" && a.changes.some((c) => c.path === "tags")) ||
      (a.action === "create" && Array.isArray(a.after?.tags) && a.after.tags.length > 0),
  );
}

/** Changes for the declared fields that differ from the live state; empty when in sync. */
export function compareDashboard(desired: DesiredDashboard, live: DashboardState): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of COMPARED) {
    const after = desiredValue(desired, field);
    if (after === undefined) continue;
    const before = live[field];
    if (deepEqual(before, after)) continue;
    const change: FieldChange = { path: field, before, after };
    if (LONG_TEXT_FIELDS.has(field)) change.diff = unifiedDiff(String(before), String(after));
    changes.push(change);
  }
  return changes;
}

function desiredValue(desired: DesiredDashboard, field: Compared): unknown {
  switch (field) {
    case "description":
      return desired.description === undefined ? undefined : normaliseText(desired.description);
    case "tags":
      return desired.tags === undefined ? undefined : normaliseTags(desired.tags);
    default:
      return desired[field];
  }
}

function declaredFields(desired: DesiredDashboard): Record<string, unknown> {
  const fields: Record<string, unknown> = { name: desired.name };
  if (desired.description !== undefined) fields.description = normaliseText(desired.description);
  if (desired.pinned !== undefined) fields.pinned = desired.pinned;
  if (desired.tags !== undefined) fields.tags = normaliseTags(desired.tags);
  if (desired.restriction_level !== undefined) fields.restriction_level = desired.restriction_level;
  return fields;
}

function asChanges(fields: Record<string, unknown>): FieldChange[] {
  return Object.entries(fields).map(([path, after]) => ({ path, after }));
}

/**
 * The declared collaborators as UUIDs (collaborators.ts); errors for those that are no members go to
 * the sink, and a members list the key may not read is said once per plan.
 */
function resolved(
  desired: DesiredDashboard,
  onDashboard: Parameters<typeof resolveCollaborators>[2],
  ctx: KindPlanContext,
): ResolvedCollaborator[] {
  const live = ctx.live as LiveDashboards;
  const owner = `dashboard "${desired.name}"`;
  const result = resolveCollaborators(owner, desired.collaborators ?? [], onDashboard, live.members);
  ctx.sink.errors.push(...result.errors);
  if (result.unchecked !== undefined) {
    const message = uncheckedNote(result.unchecked);
    if (!ctx.sink.notes.some((n) => n.message === message))
      ctx.sink.notes.push({ severity: "warning", message });
  }
  return result.collaborators;
}

function planCreate(desired: DesiredDashboard, ref: ObjectRef, ctx: KindPlanContext): void {
  const { sink, features } = ctx;
  const after = declaredFields(desired);
  sink.actions.push(makeAction("create", ref, { after, changes: asChanges(after) }));
  if (desired.tags && desired.tags.length > 0 && features?.tagging === false) {
    sink.notes.push({ severity: "warning", message: TAGS_IGNORED, object: ref });
  }
  const collaborators = resolved(desired, [], ctx);
  if (collaborators.length > 0 && features?.access_control === false) {
    // The new dashboard's effective level stays 21, where the service refuses collaborator writes.
    sink.notes.push({ severity: "warning", message: COLLABORATORS_IGNORED, object: ref });
  } else {
    for (const c of collaborators) {
      sink.actions.push(
        makeAction("add_collaborator", ref, { after: { user_uuid: c.user_uuid, level: c.level } }),
      );
    }
  }
  if (desired.sharing?.enabled) {
    sink.actions.push(
      makeAction("enable_sharing", ref, { before: { enabled: false }, after: { enabled: true } }),
    );
  }
}

function planRestore(desired: DesiredDashboard, ref: ObjectRef, ctx: KindPlanContext): void {
  const { sink } = ctx;
  sink.actions.push(
    makeAction("restore", ref, {
      before: { deleted: true },
      after: { deleted: false },
      changes: [{ path: "deleted", before: true, after: false }],
      warnings: [
        `id ${desired.id} is not in the live list: restored if soft-deleted; apply fails if it never existed`,
      ],
    }),
  );
  const after = declaredFields(desired);
  sink.actions.push(
    makeAction("update", ref, {
      before: {},
      after,
      changes: asChanges(after),
      warnings: [
        "the live values are unknown while the dashboard is deleted: apply reads it back after the restore and sends the declared fields that differ",
      ],
    }),
  );
  if (desired.sharing) {
    const enabled = desired.sharing.enabled;
    const kind = enabled ? "enable_sharing" : "disable_sharing";
    sink.actions.push(makeAction(kind, ref, { before: { enabled: !enabled }, after: { enabled } }));
  }
  if (desired.collaborators) {
    sink.notes.push({
      severity: "note",
      message: "collaborators of a restored dashboard are reconciled by the next plan",
      object: ref,
    });
  }
}

function planExisting(
  desired: DesiredDashboard,
  current: DashboardBasic,
  ref: ObjectRef,
  live: LiveDashboards,
  ctx: KindPlanContext,
): void {
  const { sink, features } = ctx;
  const state = dashboardState(current);
  let changes = compareDashboard(desired, state);
  if (features?.tagging === false && changes.some((c) => c.path === "tags")) {
    changes = changes.filter((c) => c.path !== "tags");
    sink.notes.push({ severity: "note", message: TAGS_IGNORED, object: ref });
  }
  if (changes.length > 0) {
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const c of changes) {
      before[c.path] = c.before;
      after[c.path] = c.after;
    }
    sink.actions.push(makeAction("update", ref, { before, after, changes }));
  }
  if (desired.collaborators) planCollaborators(desired, current, state, ref, live, ctx);
  if (desired.sharing) {
    const enabled = live.sharing[current.id]?.enabled ?? current.is_shared;
    if (enabled !== desired.sharing.enabled) {
      const kind = desired.sharing.enabled ? "enable_sharing" : "disable_sharing";
      sink.actions.push(
        makeAction(kind, ref, { before: { enabled }, after: { enabled: desired.sharing.enabled } }),
      );
    }
  }
}

function planCollaborators(
  desired: DesiredDashboard,
  current: DashboardBasic,
  state: DashboardState,
  ref: ObjectRef,
  live: LiveDashboards,
  ctx: KindPlanContext,
): void {
  const { sink, features } = ctx;
  const onDashboard = live.collaborators[current.id] ?? [];
  const liveList = onDashboard.map((c) => ({ user_uuid: c.user.uuid, level: c.level }));
  const wanted = resolved(desired, onDashboard, ctx);
  const liveIds = new Set(liveList.map((c) => c.user_uuid.toLowerCase()));
  const wantedIds = new Set(wanted.map((c) => c.user_uuid));
  const removes = liveList.filter((c) => !wantedIds.has(c.user_uuid.toLowerCase()));
  const adds = wanted.filter((c) => !liveIds.has(c.user_uuid));
  if (removes.length === 0 && adds.length === 0) return;
  // The service refuses collaborator writes while the effective level is 21: planning them would fail
  // on every apply, so say why instead.
  const storedButIneffective = state.restriction_level === 37 && current.effective_restriction_level === 21;
  if (storedButIneffective || features?.access_control === false) {
    sink.notes.push({ severity: "warning", message: COLLABORATORS_IGNORED, object: ref });
    return;
  }
  for (const c of removes) sink.actions.push(makeAction("remove_collaborator", ref, { before: c }));
  for (const c of adds) {
    sink.actions.push(
      makeAction("add_collaborator", ref, { after: { user_uuid: c.user_uuid, level: c.level } }),
    );
  }
}
