/**
 * One API request from socket to reply, in the service's order: injected faults (latency, reset,
 * status), body limits and parsing, routing, authentication (a key, a session or a sharing token),
 * project access, scope and access rules, throttling (keys only), then the handler. Every failure becomes the service's error body; nothing escapes as a crash.
 * Control endpoints (`/_emulator/`) bypass faults, throttling and the request log.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "posthog-gitops-shared/clock";
import { CONTROLLED_RESOURCES, requiredLevel, requireResourceAccess } from "./access.js";
import {
  authenticate,
  authorizeOrganization,
  authorizeProject,
  checkPrincipalScope,
  type Principal,
} from "./auth.js";
import { disallowedHost } from "./control.js";
import {
  ApiError,
  errorForStatus,
  forbidden,
  methodNotAllowed,
  notFound,
  type Reply,
  serverError,
  throttled,
} from "./errors.js";
import type { FaultState } from "./faults.js";
import { parseJsonBody, readBody, sendReply, tooLarge } from "./http.js";
import { type Bucket, DEFAULT_LIMITS, type RateLimiter, type Window } from "./rate-limit.js";
import type { Ctx, Router } from "./router.js";
import type { Store } from "./store.js";
import type { LogEntry, OrganizationRecord, ProjectRecord } from "./types.js";

export interface ServerState {
  store: Store;
  /** The emulator's one source of time. */
  clock: Clock;
  router: Router;
  limiter: RateLimiter;
  faults: () => FaultState;
  /** Limits from the `rateLimit` option; undefined keeps the service's defaults. */
  optionLimits: Window[] | undefined;
  log: LogEntry[];
  control: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  /** Whether a request's Host header may reach any endpoint (control.ts `hostAllowed`). */
  hostAllowed: (host: string | undefined) => boolean;
  onError?: (error: unknown) => void;
}

const MAX_LOG = 100_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The raw query string, with a key passed as `personal_api_key` masked: keys never reach the log. */
function loggedQuery(url: URL): string {
  const query = url.search.slice(1);
  if (!url.searchParams.has("personal_api_key")) return query;
  const params = new URLSearchParams(url.searchParams);
  params.set("personal_api_key", "***");
  return params.toString();
}

export async function handleRequest(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = state.clock.now();
  if (!state.hostAllowed(req.headers.host)) return disallowedHost(req, res);
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  if (url.pathname.startsWith("/_emulator/") || url.pathname === "/_emulator") {
    return state.control(req, res, url);
  }
  const method = req.method ?? "GET";
  const entry: LogEntry = { method, path: url.pathname, query: loggedQuery(url), status: 0, ms: 0 };
  const record = (status: number, fault?: LogEntry["fault"]) => {
    entry.status = status;
    entry.ms = state.clock.now() - started;
    if (fault) entry.fault = fault;
    if (state.log.length >= MAX_LOG) state.log.splice(0, MAX_LOG / 10);
    state.log.push(entry);
  };

  const faults = state.faults();
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  const decision = faults.decide(method, url.pathname);
  if (decision.kind === "reset") {
    record(0, "reset");
    req.socket.destroy();
    return;
  }
  const body = await readBody(req);
  if (body.kind === "aborted") {
    record(0);
    return;
  }
  if (decision.kind === "status") {
    const reply = errorForStatus(decision.status, decision.retryAfter).toReply();
    record(reply.status, "status");
    sendReply(res, reply);
    return;
  }
  let reply: Reply;
  try {
    if (body.kind === "too_large") throw tooLarge();
    reply = await dispatch(state, req, url, method, body.raw);
  } catch (error) {
    if (error instanceof ApiError) reply = error.toReply();
    else {
      state.onError?.(error);
      reply = serverError().toReply();
    }
  }
  if (decision.kind === "lose_response") {
    record(reply.status, "lose_response");
    req.socket.destroy();
    return;
  }
  record(reply.status);
  if (body.kind === "too_large") reply.headers = { ...reply.headers, Connection: "close" };
  sendReply(res, reply);
}

async function dispatch(
  state: ServerState,
  req: IncomingMessage,
  url: URL,
  method: string,
  raw: Buffer,
): Promise<Reply> {
  const { store, router } = state;
  let match: ReturnType<Router["match"]>;
  try {
    match = router.match(method, url.pathname);
  } catch {
    match = { kind: "none" };
  }
  // Like the service, the body is parsed lazily: a malformed body is reported after auth and throttling.
  let body: unknown;
  let bodyError: unknown;
  try {
    body = parseJsonBody(raw, req.headers["content-type"]);
  } catch (error) {
    bodyError = error;
  }
  // URL resolution precedes the view (no auth needed for a 404); 405 comes from the view, after auth.
  // Routes the newest service removed answer like any unknown route once the seed drops them.
  if (match.kind === "found" && match.route.legacy && !store.data.service.legacy_routes)
    match = { kind: "none" };
  if (match.kind === "none")
    throw url.pathname.startsWith("/api/") ? notFound("Endpoint not found.") : notFound();
  const principal = authenticate(store, {
    method,
    authorization: req.headers.authorization,
    cookie: req.headers.cookie,
    csrfHeader: header(req.headers["x-csrftoken"]),
    body,
    query: url.searchParams,
    sharingView: router.takesSharingTokens(url.pathname),
  });
  if (match.kind === "method") {
    const error = methodNotAllowed(method);
    throw new ApiError(405, error.body, { Allow: match.allowed.join(", ") });
  }
  const { route, params } = match;
  const ctx = {
    method,
    path: url.pathname,
    query: url.searchParams,
    params,
    body,
    headers: req.headers,
    store,
  } as Ctx;
  ctx.principal = principal;
  ctx.user = principal.user;
  ctx.key = principal.kind === "key" ? principal.key : undefined;
  ctx.origin = `http://${req.headers.host ?? "127.0.0.1"}`;
  ctx.now = new Date(state.clock.now());
  if (principal.kind === "sharing") {
    // SharingTokenPermission: only the view's sharing actions, in the shared resource's project.
    if (route.sharing !== "action") throw forbidden("You do not have permission to perform this action.");
    const access = sharedProject(store, principal, params.project);
    ctx.project = access.project;
    ctx.org = access.org;
  } else if (params.project !== undefined) {
    const access = authorizeProject(store, principal, params.project, route.scope, ctx.query.get("token"));
    ctx.project = access.project;
    ctx.org = access.org;
    const resource = typeof route.scope === "string" ? route.scope.split(":")[0] : undefined;
    if (route.scope && resource !== undefined && CONTROLLED_RESOURCES.has(resource)) {
      requireResourceAccess(ctx, resource, requiredLevel(route.scope), route.creates === true);
    }
  } else if (params.org !== undefined) {
    ctx.org = authorizeOrganization(store, principal, params.org, route.scope);
  } else {
    checkPrincipalScope(store, principal, route.scope);
  }
  // The service's throttles count personal API key requests only (sessions and sharing tokens pass).
  if (principal.kind === "key") {
    const bucket: Bucket = route.bucket ?? "default";
    const windows = state.faults().rateLimit ?? state.optionLimits ?? DEFAULT_LIMITS[bucket];
    const wait = state.limiter.check(principal.key.key, bucket, windows, state.clock.now());
    if (wait > 0) throw throttled(wait);
  }
  if (bodyError !== undefined) throw bodyError;
  const reply = await route.handler(ctx);
  if (method !== "GET" && reply.status < 400) store.touch();
  return reply;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The project a sharing token reaches: its configuration's (the shared dashboard's or insight's), not
 * the one the path names, as the service takes the team from the token.
 */
function sharedProject(
  store: Store,
  principal: Extract<Principal, { kind: "sharing" }>,
  rawProject: string | undefined,
): { project: ProjectRecord; org: OrganizationRecord } {
  const s = principal.sharing;
  const teamId =
    s.team_id ??
    (s.dashboard_id !== null
      ? store.data.dashboards.find((d) => d.id === s.dashboard_id)?.team_id
      : undefined) ??
    (typeof s.insight_id === "number"
      ? store.data.insights.find((i) => i.id === s.insight_id)?.team_id
      : undefined) ??
    (rawProject !== undefined && /^\d+$/.test(rawProject) ? Number(rawProject) : undefined);
  const project = teamId === undefined ? undefined : store.project(teamId);
  const org = project ? store.organization(project.organization) : undefined;
  if (!project || !org) throw notFound("Project not found.");
  return { project, org };
}
