/**
 * A dashboard's plan besides the model's (create, update including a rename through a pin, soft
 * delete of tombstones, restore of a pinned dashboard missing from the live list): collaborator
 * removes / adds, the sharing switch and the tiles (tiles-plan.ts). Collaborators the service would
 * silently ignore (without access control) become a note instead of a perpetual change.
 */
import { type KindPlanContext, makeAction } from "../../plan/index.js";
import type { Action, ObjectLink, ObjectRef } from "../../plan/types.js";
import { asciiLower } from "../../text.js";
import type { DashboardBasic } from "./answers.js";
import { type ResolvedCollaborator, resolveCollaborators, uncheckedNote } from "./collaborators.js";
import type { DesiredDashboard } from "./fields.js";
import type { LiveDashboards } from "./live.js";
import { planTiles } from "./tiles-plan.js";
import { ADD_COLLABORATOR, DISABLE_SHARING, ENABLE_SHARING, REMOVE_COLLABORATOR } from "./verbs.js";

const COLLABORATORS_IGNORED =
  "collaborators are not reconciled: the organization lacks the access control feature, so the dashboard's effective restriction level stays everyone (21)";

/**
 * What a dashboard's table cannot say, planned after the model's own actions (../define/model.ts:
 * create, update, soft delete, restore): collaborators, the sharing switch and the tiles. A restored
 * dashboard's collaborators and tiles are planned by the next plan (its details were not read).
 */
export function planDashboardExtras(
  desired: DesiredDashboard,
  current: DashboardBasic | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext<LiveDashboards>,
  how: "create" | "update" | "restore",
  links: readonly ObjectLink[],
): void {
  if (how === "create") planCreate(desired, ref, ctx, links);
  else if (how === "restore") planRestore(desired, ref, ctx);
  else if (current) planExisting(desired, current, ref, ctx, links);
}

/** Collaborators added (besides tags, which the model asks about): access control matters. */
export function dashboardsNeedFeatures(actions: readonly Action[]): boolean {
  return actions.some((a) => a.action === ADD_COLLABORATOR.name);
}

function sharingAction(ref: ObjectRef, before: boolean, after: boolean): Action {
  return makeAction(after ? ENABLE_SHARING : DISABLE_SHARING, ref, {
    before: { enabled: before },
    after: { enabled: after },
  });
}

function addCollaboratorAction(ref: ObjectRef, c: ResolvedCollaborator): Action {
  return makeAction(ADD_COLLABORATOR, ref, { after: { user_uuid: c.user_uuid, level: c.level } });
}

/**
 * The declared collaborators as UUIDs (collaborators.ts); errors for those that are no members go to
 * the sink, and a members list the key may not read is said once per plan.
 */
function resolved(
  desired: DesiredDashboard,
  onDashboard: Parameters<typeof resolveCollaborators>[2],
  ctx: KindPlanContext<LiveDashboards>,
): ResolvedCollaborator[] {
  const owner = `dashboard "${desired.name}"`;
  const result = resolveCollaborators(owner, desired.collaborators ?? [], onDashboard, ctx.live.members);
  ctx.sink.errors.push(...result.errors);
  if (result.unchecked !== undefined) {
    const message = uncheckedNote(result.unchecked);
    if (!ctx.sink.notes.some((n) => n.message === message))
      ctx.sink.notes.push({ severity: "warning", message });
  }
  return result.collaborators;
}

function planCreate(
  desired: DesiredDashboard,
  ref: ObjectRef,
  ctx: KindPlanContext<LiveDashboards>,
  links: readonly ObjectLink[],
): void {
  const { sink, features } = ctx;
  const collaborators = resolved(desired, [], ctx);
  if (collaborators.length > 0 && features?.access_control === false) {
    // The new dashboard's effective level stays 21, where the service refuses collaborator writes.
    sink.notes.push({ severity: "warning", message: COLLABORATORS_IGNORED, object: ref });
  } else {
    for (const c of collaborators) sink.actions.push(addCollaboratorAction(ref, c));
  }
  if (desired.sharing?.enabled) sink.actions.push(sharingAction(ref, false, true));
  planTiles(desired, undefined, ref, ctx, links);
}

function planRestore(desired: DesiredDashboard, ref: ObjectRef, ctx: KindPlanContext): void {
  const { sink } = ctx;
  if (desired.sharing)
    sink.actions.push(sharingAction(ref, !desired.sharing.enabled, desired.sharing.enabled));
  if (desired.collaborators) {
    sink.notes.push({
      severity: "note",
      message: "collaborators of a restored dashboard are reconciled by the next plan",
      object: ref,
    });
  }
  if (desired.tiles) {
    sink.notes.push({
      severity: "note",
      message: "tiles of a restored dashboard are reconciled by the next plan",
      object: ref,
    });
  }
}

function planExisting(
  desired: DesiredDashboard,
  current: DashboardBasic,
  ref: ObjectRef,
  ctx: KindPlanContext<LiveDashboards>,
  links: readonly ObjectLink[],
): void {
  const { sink, live } = ctx;
  if (desired.collaborators) planCollaborators(desired, current, ref, ctx);
  if (desired.sharing) {
    const enabled = live.sharing[current.id]?.enabled ?? current.is_shared;
    if (enabled !== desired.sharing.enabled)
      sink.actions.push(sharingAction(ref, enabled, desired.sharing.enabled));
  }
  planTiles(desired, current, ref, ctx, links);
}

function planCollaborators(
  desired: DesiredDashboard,
  current: DashboardBasic,
  ref: ObjectRef,
  ctx: KindPlanContext<LiveDashboards>,
): void {
  const { sink, features, live } = ctx;
  const onDashboard = live.collaborators[current.id] ?? [];
  const liveList = onDashboard.map((c) => ({ user_uuid: c.user.uuid, level: c.level }));
  const wanted = resolved(desired, onDashboard, ctx);
  const liveIds = new Set(liveList.map((c) => asciiLower(c.user_uuid)));
  const wantedIds = new Set(wanted.map((c) => c.user_uuid));
  const removes = liveList.filter((c) => !wantedIds.has(asciiLower(c.user_uuid)));
  const adds = wanted.filter((c) => !liveIds.has(c.user_uuid));
  if (removes.length === 0 && adds.length === 0) return;
  // The service refuses collaborator writes while the effective level is 21: planning them would fail
  // on every apply, so say why instead.
  const storedButIneffective = current.restriction_level === 37 && current.effective_restriction_level === 21;
  if (storedButIneffective || features?.access_control === false) {
    sink.notes.push({ severity: "warning", message: COLLABORATORS_IGNORED, object: ref });
    return;
  }
  for (const c of removes) sink.actions.push(makeAction(REMOVE_COLLABORATOR, ref, { before: c }));
  for (const c of adds) sink.actions.push(addCollaboratorAction(ref, c));
}
