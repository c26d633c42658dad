/**
 * Authentication and authorization, in the service's order (service-api.md §8, posthog/auth.py):
 * credentials (a sharing token on the views that take one, then a personal API key — Bearer header, then
 * `personal_api_key` in the body, then in the query — then a session cookie) → 401 (403 on the views that
 * take sharing tokens); project existence → 404; key's scoped projects → 403; scope → 403; membership and
 * the project's access rules (access.ts) → 403. The scoped projects come before the scope, as in the
 * service's APIScopePermission: a project-scoped key asking an organization endpoint hears that its
 * projects are the reason, whatever scopes it has. Newest rules: a key with no scopes fails every scope
 * check (older: a legacy key may do anything), and actions without a scope mapping answer "This action
 * does not support personal API key access". Sessions and sharing tokens are not scoped.
 */
import { canReachProject } from "./access.js";
import { ApiError, authenticationFailed, forbidden, notAuthenticated, notFound } from "./errors.js";
import { isNewest } from "./service.js";
import type { Store } from "./store.js";
import type {
  ApiKeyRecord,
  OrganizationRecord,
  ProjectRecord,
  SessionRecord,
  SharingRecord,
  UserRecord,
} from "./types.js";

/**
 * Who a request acts as: a personal API key's user, a browser session's user, or (on the insight views,
 * which take sharing tokens) the anonymous visitor of a shared dashboard or insight.
 */
export type Principal =
  | { kind: "key"; key: ApiKeyRecord; user: UserRecord }
  | { kind: "session"; session: SessionRecord; user: UserRecord }
  | { kind: "sharing"; sharing: SharingRecord; user: UserRecord };

/** The user of a sharing-token request: Django's AnonymousUser, a member of no organization. */
export const ANONYMOUS: UserRecord = {
  id: 0,
  uuid: "",
  email: "",
  first_name: "",
  last_name: "",
  is_active: false,
  organizations: [],
};

export interface Credentials {
  method: string;
  authorization: string | undefined;
  cookie: string | undefined;
  csrfHeader: string | undefined;
  body: unknown;
  query: URLSearchParams;
  /**
   * The view takes sharing tokens (`sharing_enabled_actions`): `?sharing_access_token=` is read first,
   * and, its first authenticator naming no `WWW-Authenticate` scheme, DRF answers every failure to
   * authenticate there with 403 instead of 401.
   */
  sharingView: boolean;
}

function cookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) out.set(part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim()));
  }
  return out;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Django's CSRF check, which DRF's SessionAuthentication runs on unsafe methods: the `X-CSRFToken`
 * header must repeat the `csrftoken` cookie, the session's token. The wording of each refusal follows
 * Django's reasons [inferred].
 */
function checkCsrf(credentials: Credentials, jar: Map<string, string>, session: SessionRecord): void {
  if (SAFE_METHODS.has(credentials.method)) return;
  const cookie = jar.get("csrftoken");
  if (cookie === undefined) throw forbidden("CSRF Failed: CSRF cookie not set.");
  if (credentials.csrfHeader === undefined) throw forbidden("CSRF Failed: CSRF token missing.");
  if (credentials.csrfHeader !== cookie || cookie !== session.csrf_token) {
    throw forbidden("CSRF Failed: CSRF token incorrect.");
  }
}

/**
 * The service's authenticators in their order: on views that take sharing tokens, an enabled sharing
 * configuration's `?sharing_access_token=` (GET only; one that needs a password is left to the next
 * authenticators); then a personal API key (Bearer header, then `personal_api_key` in the body, then in
 * the query; only the first found is tried); then the session cookie (`sessionid`; an unknown session is
 * no session, as in Django). 401 when none authenticates, or 403 on views that take sharing tokens.
 */
export function authenticate(store: Store, credentials: Credentials): Principal {
  const fail = (error: ApiError) =>
    credentials.sharingView ? new ApiError(403, error.body, error.headers) : error;
  const { authorization, body, query } = credentials;
  const sharingToken = credentials.sharingView ? query.get("sharing_access_token") : null;
  if (sharingToken) {
    if (credentials.method !== "GET" && credentials.method !== "HEAD") {
      throw fail(authenticationFailed("Sharing access token can only be used for GET requests."));
    }
    const sharing = store.data.sharing.find((s) => s.access_token === sharingToken && s.enabled);
    if (!sharing) throw fail(authenticationFailed("Sharing access token is invalid."));
    if (!sharing.password_required) return { kind: "sharing", sharing, user: ANONYMOUS };
  }
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
  if (token !== undefined) {
    const key = store.data.api_keys.find((k) => k.key === token);
    const user = key ? store.user(key.user) : undefined;
    if (!key || !user?.is_active) throw fail(authenticationFailed());
    return { kind: "key", key, user };
  }
  const jar = cookies(credentials.cookie);
  const sessionId = jar.get("sessionid");
  const session = sessionId ? store.data.sessions.find((x) => x.id === sessionId) : undefined;
  const sessionUser = session ? store.user(session.user) : undefined;
  if (session && sessionUser?.is_active) {
    checkCsrf(credentials, jar, session);
    return { kind: "session", session, user: sessionUser };
  }
  throw fail(notAuthenticated());
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

/** A principal's scope check: only personal API keys are scoped (APIScopePermission). */
export function checkPrincipalScope(store: Store, principal: Principal, needed: string | null | false): void {
  if (principal.kind === "key") checkScope(store, principal.key, needed);
}

export function checkScope(store: Store, key: ApiKeyRecord, needed: string | null | false): void {
  if (needed === false) return;
  const newest = isNewest(store);
  if (key.scopes.includes("*") || (key.scopes.length === 0 && !newest)) return;
  if (needed === null) throw forbidden(newest ? NO_KEY_ACCESS : NO_KEY_ACCESS_OLD);
  if (!hasScope(key, needed, newest)) throw forbidden(`API key missing required scope '${needed}'`);
}

/**
 * Resolves `:project` (a number or `@current`) and checks the principal may use it. A project API
 * token in the query (`?token=phc_…`) names the project instead, as the service's routing mixin reads
 * it (an unknown token is 401).
 */
export function authorizeProject(
  store: Store,
  principal: Principal,
  rawId: string,
  scope: string | null | false,
  token: string | null = null,
): { project: ProjectRecord; org: OrganizationRecord } {
  const byToken = token ? store.data.projects.find((p) => p.api_token === token) : undefined;
  if (token && !byToken) throw authenticationFailed("Incorrect authentication credentials.");
  const project =
    byToken ??
    (rawId === "@current"
      ? store.data.projects.find((p) => store.isMember(principal.user, p.organization))
      : /^\d+$/.test(rawId)
        ? store.project(Number(rawId))
        : undefined);
  const org = project ? store.organization(project.organization) : undefined;
  if (!project || !org) throw notFound("Project not found.");
  const scoped = principal.kind === "key" ? principal.key.scoped_teams : undefined;
  if (scope !== false && scoped && scoped.length > 0 && !scoped.includes(project.id)) {
    throw forbidden(`API key does not have access to the requested project: ID ${project.id}.`);
  }
  checkPrincipalScope(store, principal, scope);
  if (!store.isMember(principal.user, org.id)) throw forbidden("You don't have access to the project.");
  // A private project (access control rules) keeps out the members it was not opened to.
  if (!canReachProject({ store, user: principal.user, project, org })) {
    throw forbidden("You don't have access to the project.");
  }
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
  const scoped = principal.kind === "key" ? principal.key.scoped_teams : undefined;
  if (scope !== false && scoped && scoped.length > 0) {
    throw forbidden("API keys with scoped projects are only supported on project-based endpoints.");
  }
  checkPrincipalScope(store, principal, scope);
  if (!store.isMember(principal.user, org.id)) {
    throw forbidden("You don't have access to the organization.");
  }
  return org;
}
