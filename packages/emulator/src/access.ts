/**
 * The service's newest access control (posthog/rbac/user_access_control.py, posthog/permissions.py
 * `AccessControlPermission`, posthog/user_permissions.py): access control rules (`AccessControl` rows,
 * types.ts) on a project, on a whole resource of a project (dashboards, insights, ...) or on one
 * object, for every member or for one member.
 *
 * - Rules count only while the organization has the entitlement: ACCESS_CONTROL newest
 *   (`features.access_control`), ADVANCED_PERMISSIONS under the 2025 rules; without it every member
 *   has the default level (`editor` on objects, `admin` on the project).
 * - An object's creator and the organization's admins and owners always have the highest level
 *   (`manager`).
 * - A member's level on an object (`get_user_access_level`, a response's `user_access_level`): the
 *   highest of the rules naming them on the object, else the highest resource-wide rule, else the
 *   highest rule for everyone on the object, else the default.
 * - A project: a member rule decides, else the rule for everyone; `none` (a private project the member
 *   was not added to) answers 403 "You don't have access to the project." A project admin rule makes the
 *   member a project admin (restriction rights on dashboards).
 * - Lists leave out the objects every applicable rule denies (`none`) unless the caller created them;
 *   when the caller has no resource-wide access but rules granting single objects, only those objects
 *   (and their own) are listed.
 *
 * Roles (ROLE_BASED_ACCESS) are not modelled. Where the newest user_permissions.py makes every member of
 * a project without project rules its admin, the emulator keeps the organization level (admins and
 * owners administer projects, members do not), which is what the ported tests of restriction rights
 * and collaborators expect.
 */
import { forbidden } from "./errors.js";
import { isNewest } from "./service.js";
import type { Store } from "./store.js";
import type {
  AccessControlRecord,
  AccessLevel,
  OrganizationRecord,
  ProjectRecord,
  UserRecord,
} from "./types.js";

const MEMBER_LEVELS: readonly AccessLevel[] = ["none", "member", "admin"];
const RESOURCE_LEVELS: readonly AccessLevel[] = ["none", "viewer", "editor", "manager"];

/** ACCESS_CONTROL_RESOURCES: the resources that take access control rules. */
export const CONTROLLED_RESOURCES: ReadonlySet<string> = new Set([
  "action",
  "customer_analytics",
  "dashboard",
  "early_access_feature",
  "endpoint",
  "experiment",
  "export",
  "external_data_source",
  "warehouse_objects",
  "feature_flag",
  "insight",
  "llm_analytics",
  "notebook",
  "revenue_analytics",
  "session_recording",
  "sharing_configuration",
  "survey",
  "web_analytics",
  "activity_log",
  "error_tracking",
  "logs",
  "tracing",
]);

/** Resources whose access comes from membership, never from resource-wide rules. */
const WITHOUT_RESOURCE_RULES = new Set(["organization", "project", "plugin"]);

export function orderedLevels(resource: string): readonly AccessLevel[] {
  return resource === "project" || resource === "organization" ? MEMBER_LEVELS : RESOURCE_LEVELS;
}

export function defaultLevel(resource: string): AccessLevel {
  if (resource === "project") return "admin";
  if (resource === "organization") return "member";
  if (resource === "activity_log") return "viewer";
  return "editor";
}

export function highestLevel(resource: string): AccessLevel {
  if (resource === "activity_log") return "viewer";
  return orderedLevels(resource).at(-1) as AccessLevel;
}

export function satisfies(resource: string, level: AccessLevel, required: AccessLevel): boolean {
  const levels = orderedLevels(resource);
  return levels.indexOf(level) >= levels.indexOf(required);
}

/** Who asks, and where: the caller (a user, or an anonymous one with no membership) in a project. */
export interface Who {
  store: Store;
  user: UserRecord;
  project: ProjectRecord;
  org: OrganizationRecord;
}

/** An object under access control: its id, and who created it (creators have the highest level). */
export interface Controlled {
  id: number | string;
  created_by?: number | null;
}

/** Whether the organization's rules take effect (the ACCESS_CONTROL entitlement; 2025: ADVANCED_PERMISSIONS). */
export function rulesApply(store: Store, org: OrganizationRecord): boolean {
  return isNewest(store) ? org.features.access_control : org.features.advanced_permissions;
}

function membership(who: Who) {
  return who.user.organizations.find((m) => m.id === who.org.id);
}

export function isOrganizationAdmin(user: UserRecord, orgId: string): boolean {
  return user.organizations.some((m) => m.id === orgId && m.level !== "member");
}

/** The rules of the project on `resource` / `resourceId` that apply to the caller (theirs and everyone's). */
function rulesFor(who: Who, resource: string, resourceId: string | null): AccessControlRecord[] {
  if (!rulesApply(who.store, who.org)) return [];
  return who.store.data.access_controls.filter(
    (r) =>
      r.team_id === who.project.id &&
      r.resource === resource &&
      r.resource_id === resourceId &&
      (r.organization_member === null || r.organization_member === who.user.id),
  );
}

function highestOf(resource: string, rules: AccessControlRecord[]): AccessLevel {
  const levels = orderedLevels(resource);
  return rules.reduce<AccessLevel>(
    (best, r) => (levels.indexOf(r.access_level) > levels.indexOf(best) ? r.access_level : best),
    rules[0]?.access_level ?? "none",
  );
}

/** `access_level_for_object` (with `specific_only`: the rules naming the caller only, else nothing). */
function objectLevel(who: Who, resource: string, obj: Controlled, specificOnly: boolean): AccessLevel | null {
  if (!membership(who)) return null;
  if (resource !== "project" && obj.created_by !== undefined && obj.created_by === who.user.id) {
    return highestLevel(resource);
  }
  if (isOrganizationAdmin(who.user, who.org.id)) return highestLevel(resource);
  if (!rulesApply(who.store, who.org)) return defaultLevel(resource);
  let rules = rulesFor(who, resource, String(obj.id));
  if (specificOnly) {
    rules = rules.filter((r) => r.organization_member !== null);
    if (rules.length === 0) return null;
  }
  return rules.length === 0 ? defaultLevel(resource) : highestOf(resource, rules);
}

/** `access_level_for_resource`: the caller's level on a whole resource of the project. */
export function resourceLevel(who: Who, resource: string): AccessLevel | null {
  if (WITHOUT_RESOURCE_RULES.has(resource)) return defaultLevel(resource);
  if (!membership(who)) return null;
  if (isOrganizationAdmin(who.user, who.org.id)) return highestLevel(resource);
  if (!rulesApply(who.store, who.org)) return defaultLevel(resource);
  const rules = rulesFor(who, resource, null);
  return rules.length === 0 ? defaultLevel(resource) : highestOf(resource, rules);
}

function hasResourceRules(who: Who, resource: string): boolean {
  return !WITHOUT_RESOURCE_RULES.has(resource) && rulesFor(who, resource, null).length > 0;
}

/** `get_user_access_level`: the caller's level on an object (null for a caller outside the organization). */
export function userAccessLevel(who: Who, resource: string, obj: Controlled): AccessLevel | null {
  const specific = objectLevel(who, resource, obj, true);
  if (specific) return specific;
  if (hasResourceRules(who, resource)) {
    const level = resourceLevel(who, resource);
    if (level) return level;
  }
  return objectLevel(who, resource, obj, false);
}

export function canAccess(who: Who, resource: string, obj: Controlled, required: AccessLevel): boolean {
  const level = userAccessLevel(who, resource, obj);
  return level !== null && satisfies(resource, level, required);
}

/** `AccessControlPermission.has_object_permission`: 403 unless the caller has `required` on the object. */
export function requireAccess(who: Who, resource: string, obj: Controlled, required: AccessLevel): void {
  if (!canAccess(who, resource, obj, required)) {
    throw forbidden(`You do not have ${required} access to this resource.`);
  }
}

/** The level a route's scope asks for: `editor` to write, `viewer` to read. */
export function requiredLevel(scope: string): AccessLevel {
  return scope.endsWith(":write") ? "editor" : "viewer";
}

/** `has_any_specific_access_for_resource`: a rule naming the caller grants `required` on some object. */
function hasSpecificGrant(who: Who, resource: string, required: AccessLevel): boolean {
  if (!membership(who)) return false;
  if (isOrganizationAdmin(who.user, who.org.id)) return true;
  if (!rulesApply(who.store, who.org)) return false;
  return who.store.data.access_controls.some(
    (r) =>
      r.team_id === who.project.id &&
      r.resource === resource &&
      r.resource_id !== null &&
      r.organization_member === who.user.id &&
      satisfies(resource, r.access_level, required),
  );
}

/**
 * `AccessControlPermission.has_permission`, past the project check: the caller's resource-wide level
 * must reach `required`; short of it, a create is refused and any other action passes only with a
 * rule granting some single object.
 */
export function requireResourceAccess(
  who: Who,
  resource: string,
  required: AccessLevel,
  creating: boolean,
): void {
  if (!CONTROLLED_RESOURCES.has(resource)) return;
  const level = resourceLevel(who, resource);
  if (level !== null && satisfies(resource, level, required)) return;
  if (!creating && hasSpecificGrant(who, resource, required)) return;
  throw forbidden(`You do not have ${required} access to this resource.`);
}

/** `check_access_level_for_object(team, "member")`: whether the caller may reach the project at all. */
export function canReachProject(who: Who): boolean {
  return canAccess(who, "project", { id: who.project.id }, "member");
}

/**
 * Whether a user administers the project (restriction rights on its dashboards): organization admins
 * and owners; with the entitlement, also a member whom the project's rules make its admin (their own
 * rule first, else the rule for everyone).
 */
export function isProjectAdmin(store: Store, user: UserRecord, project: ProjectRecord): boolean {
  if (isOrganizationAdmin(user, project.organization)) return true;
  const org = store.organization(project.organization);
  if (!org || !rulesApply(store, org)) return false;
  const rules = store.data.access_controls.filter(
    (r) => r.team_id === project.id && r.resource === "project" && r.resource_id === String(project.id),
  );
  const own = rules.filter((r) => r.organization_member === user.id);
  if (own.length > 0) return own.some((r) => r.access_level === "admin");
  return rules.some((r) => r.organization_member === null && r.access_level === "admin");
}

/**
 * `filter_queryset_by_access_level` for a list of `resource` objects. `includeAllIfAdmin`: organization
 * admins see everything (the insight list asked by `short_id`); otherwise admins are filtered too.
 */
export function filterByAccess<T extends Controlled>(
  who: Who,
  resource: string,
  items: T[],
  includeAllIfAdmin = false,
): T[] {
  if (includeAllIfAdmin && isOrganizationAdmin(who.user, who.org.id)) return items;
  if (!rulesApply(who.store, who.org)) return items;
  const rules = who.store.data.access_controls.filter(
    (r) =>
      r.team_id === who.project.id &&
      r.resource === resource &&
      r.resource_id !== null &&
      (r.organization_member === null || r.organization_member === who.user.id),
  );
  const blocked = new Set<string>();
  const allowed = new Set<string>();
  const byObject = new Map<string, AccessControlRecord[]>();
  for (const r of rules)
    byObject.set(r.resource_id as string, [...(byObject.get(r.resource_id as string) ?? []), r]);
  for (const [id, objectRules] of byObject) {
    const explicit = objectRules.filter((r) => r.organization_member !== null);
    if (explicit.length === 0) {
      if (objectRules.every((r) => r.access_level === "none")) blocked.add(id);
    } else if (explicit.some((r) => r.access_level !== "none")) allowed.add(id);
    else blocked.add(id);
  }
  const own = (item: T) =>
    item.created_by !== undefined && item.created_by !== null && item.created_by === who.user.id;
  const level = resourceLevel(who, resource);
  if ((level === null || level === "none") && allowed.size > 0) {
    return items.filter((item) => allowed.has(String(item.id)) || own(item));
  }
  if (blocked.size > 0) return items.filter((item) => !blocked.has(String(item.id)) || own(item));
  return items;
}
