/**
 * Dashboards, with their collaborators and sharing switch. Managed fields: name (through an id pin),
 * description, pinned, tags, restriction_level; collaborators and sharing are separate actions.
 */
import type { DesiredDashboard } from "../config/types.js";
import type { Action, FieldChange } from "../plan/types.js";
import type { Collaborator, DashboardBasic, SharingConfiguration } from "../service/types.js";
import type { Env, KindHandler, PulledObject } from "./handler.js";
import { compareText, deepEqual, normaliseTags, normaliseText } from "./normalise.js";
import { LONG_TEXT_FIELDS, unifiedDiff } from "./text-diff.js";

/** The comparable shape of a live dashboard; collaborators and sharing only when they were fetched. */
export interface DashboardState {
  id: number;
  name: string;
  description: string;
  pinned: boolean;
  tags: string[];
  restriction_level: 21 | 37;
  collaborators?: { user_uuid: string; level: number }[];
  sharing?: { enabled: boolean };
}

export interface DashboardExtras {
  collaborators?: Collaborator[];
  sharing?: SharingConfiguration;
}

const COMPARED = ["name", "description", "pinned", "tags", "restriction_level"] as const;
type Compared = (typeof COMPARED)[number];

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

export const dashboardHandler: KindHandler<
  DesiredDashboard,
  DashboardBasic,
  DashboardState,
  DashboardExtras
> = {
  kind: "dashboard",
  serverOwnedFields: [
    "id",
    "team_id",
    "created_at",
    "created_by",
    "creation_mode",
    "is_shared",
    "effective_restriction_level",
    "effective_privilege_level",
    "user_access_level",
    "access_control_version",
    "last_accessed_at",
    "last_viewed_at",
    "last_refresh",
    "deleted",
  ],

  normaliseLive(live, extras) {
    const state: DashboardState = {
      id: live.id,
      name: live.name ?? "",
      description: normaliseText(live.description),
      pinned: live.pinned,
      tags: normaliseTags(live.tags),
      restriction_level: live.restriction_level,
    };
    if (extras?.collaborators) {
      state.collaborators = extras.collaborators
        .map((c) => ({ user_uuid: c.user.uuid, level: c.level }))
        .sort((a, b) => compareText(a.user_uuid, b.user_uuid));
    }
    if (extras?.sharing) state.sharing = { enabled: extras.sharing.enabled };
    return state;
  },

  compare(desired, live) {
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
  },

  requestBody(action: Action, _env: Env) {
    switch (action.action) {
      case "create":
      case "update":
        return { ...action.after };
      case "restore":
        return { deleted: false };
      case "soft_delete":
        return { deleted: true };
      case "add_collaborator":
        return { user_uuid: action.after?.user_uuid, level: action.after?.level ?? 37 };
      case "enable_sharing":
        return { enabled: true };
      case "disable_sharing":
        return { enabled: false };
      default:
        return undefined;
    }
  },

  toInput(live, extras): PulledObject {
    // Every managed field is written, defaults included: a field left out is not managed, so a later
    // edit in the UI (pinning, tagging, restricting) would never show up as drift.
    const input: Record<string, unknown> = { name: live.name ?? "", id: live.id };
    input.description = live.description;
    input.pinned = live.pinned;
    input.tags = normaliseTags(live.tags);
    input.restriction_level = live.restriction_level === 37 ? "only_collaborators" : "everyone";
    if (live.restriction_level === 37 && extras.collaborators) {
      input.collaborators = extras.collaborators
        .map((c) => ({ user_uuid: c.user.uuid, level: c.level === 37 ? "can_edit" : "can_view" }))
        .sort((a, b) => compareText(a.user_uuid, b.user_uuid));
    }
    if (extras.sharing) input.sharing = { enabled: extras.sharing.enabled };
    return { input, variables: [] };
  },
};
