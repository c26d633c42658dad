/**
 * One API request from socket to reply, in the service's order: injected faults (latency, reset,
 * status), body limits and parsing, routing, authentication, project access and scope, throttling,
 * then the handler. Every failure becomes the service's error body; nothing escapes as a crash.
 * Control endpoints (`/_emulator/`) bypass faults, throttling and the request log.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../clock.js";
import { authenticate, authorizeOrganization, authorizeProject, checkScope } from "./auth.js";
import { disallowedHost } from "./control.js";
import {
  ApiError,
  errorForStatus,
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
import type { LogEntry } from "./types.js";

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
  const principal = authenticate(store, req.headers.authorization, body, url.searchParams);
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
  ctx.user = principal.user;
  ctx.key = principal.key;
  ctx.origin = `http://${req.headers.host ?? "127.0.0.1"}`;
  ctx.now = new Date(state.clock.now());
  if (params.project !== undefined) {
    const access = authorizeProject(store, principal, params.project, route.scope);
    ctx.project = access.project;
    ctx.org = access.org;
  } else if (params.org !== undefined) {
    ctx.org = authorizeOrganization(store, principal, params.org, route.scope);
  } else {
    checkScope(store, principal.key, route.scope);
  }
  const bucket: Bucket = route.bucket ?? "default";
  const windows = state.faults().rateLimit ?? state.optionLimits ?? DEFAULT_LIMITS[bucket];
  const wait = state.limiter.check(principal.key.key, bucket, windows, state.clock.now());
  if (wait > 0) throw throttled(wait);
  if (bodyError !== undefined) throw bodyError;
  const reply = await route.handler(ctx);
  if (method !== "GET" && reply.status < 400) store.touch();
  return reply;
}
