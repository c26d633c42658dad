/**
 * Personal API key authentication and authorization, in the service's order (service-api.md §8):
 * key lookup (Bearer header, then `personal_api_key` in the body, then in the query) → 401;
 * project existence → 404; key's scoped projects → 403; scope → 403; membership → 403. The scoped
 * projects come before the scope, as in the service's APIScopePermission: a project-scoped key asking
 * an organization endpoint hears that its projects are the reason, whatever scopes it has.
 * Newest rules: a key with no scopes fails every scope check (older: a legacy key may do anything),
 * and actions without a scope mapping answer "This action does not support personal API key access".
 */
import { authenticationFailed, forbidden, notAuthenticated, notFound } from "./errors.js";
import { isNewest } from "./service.js";
import type { Store } from "./store.js";
import type { ApiKeyRecord, OrganizationRecord, ProjectRecord, UserRecord } from "./types.js";

export interface Principal {
  key: ApiKeyRecord;
  user: UserRecord;
}

export function authenticate(
  store: Store,
  authorization: string | undefined,
  body: unknown,
  query: URLSearchParams,
): Principal {
  let token: string | undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (bearer) token = bearer[1];
  else if (
    typeof body === "object" &&
    body !== null &&
    typeof (body as Record<string, unknown>).personal_api_key === "string"
  ) {
    token = (body as Record<string, string>).personal_api_key;
  } else token = query.get("personal_api_key") ?? undefined;
  if (token === undefined) throw notAuthenticated();
  const key = store.data.api_keys.find((k) => k.key === token);
  const user = key ? store.user(key.user) : undefined;
  if (!key || !user?.is_active) throw authenticationFailed();
  return { key, user };
}

/** `x:write` implies `x:read`; `*` grants everything, and so does the empty (legacy) list unless newest. */
export function hasScope(key: ApiKeyRecord, needed: string, newest: boolean): boolean {
  if (key.scopes.includes("*") || (key.scopes.length === 0 && !newest)) return true;
  if (key.scopes.includes(needed)) return true;
  const [object, access] = needed.split(":");
  return access === "read" && key.scopes.includes(`${object}:write`);
}

/** Newest wording; the older service (and the personal API keys viewset, still) capitalise it. */
export const NO_KEY_ACCESS = "This action does not support personal API key access";
export const NO_KEY_ACCESS_OLD = "This action does not support Personal API Key access";

export function checkScope(store: Store, key: ApiKeyRecord, needed: string | null | false): void {
  if (needed === false) return;
  const newest = isNewest(store);
  if (key.scopes.includes("*") || (key.scopes.length === 0 && !newest)) return;
  if (needed === null) throw forbidden(newest ? NO_KEY_ACCESS : NO_KEY_ACCESS_OLD);
  if (!hasScope(key, needed, newest)) throw forbidden(`API key missing required scope '${needed}'`);
}

/** Resolves `:project` (a number or `@current`) and checks the principal may use it. */
export function authorizeProject(
  store: Store,
  principal: Principal,
  rawId: string,
  scope: string | null | false,
): { project: ProjectRecord; org: OrganizationRecord } {
  const project =
    rawId === "@current"
      ? store.data.projects.find((p) => store.isMember(principal.user, p.organization))
      : /^\d+$/.test(rawId)
        ? store.project(Number(rawId))
        : undefined;
  const org = project ? store.organization(project.organization) : undefined;
  if (!project || !org) throw notFound("Project not found.");
  const scoped = principal.key.scoped_teams;
  if (scope !== false && scoped && scoped.length > 0 && !scoped.includes(project.id)) {
    throw forbidden(`API key does not have access to the requested project: ID ${project.id}.`);
  }
  checkScope(store, principal.key, scope);
  if (!store.isMember(principal.user, org.id)) throw forbidden("You don't have access to the project.");
  return { project, org };
}

/** Resolves `:org` (an id or `@current`) for organization-level endpoints. */
export function authorizeOrganization(
  store: Store,
  principal: Principal,
  rawId: string,
  scope: string | null | false,
): OrganizationRecord {
  const id = rawId === "@current" ? principal.user.organizations[0]?.id : rawId;
  const org = id === undefined ? undefined : store.organization(id);
  if (!org) throw notFound();
  if (scope !== false && principal.key.scoped_teams && principal.key.scoped_teams.length > 0) {
    throw forbidden("API keys with scoped projects are only supported on project-based endpoints.");
  }
  checkScope(store, principal.key, scope);
  if (!store.isMember(principal.user, org.id)) {
    throw forbidden("You don't have access to the organization.");
  }
  return org;
}
