/**
 * Control endpoints under `/_emulator/` (docs/architecture.md): no auth, never faulted, throttled or
 * logged. `GET/DELETE requests`, `GET/POST faults`, `POST reset`, `GET state`, `POST seed`,
 * `POST upgrade_queries`, `POST sessions`, `POST cohorts/recalculate`, `POST cohorts/upgrade_bytecode`.
 * They refuse browsers (SPEC §8): a request whose `Origin` is not the emulator's own, or whose
 * `Sec-Fetch-Site` says another site sent it, gets a 403, so a web page cannot reconfigure or read a
 * developer's local emulator. Tools (curl, the test helpers, the CLI) send neither header.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "./errors.js";
import { parseFaults } from "./faults.js";
import { readBody, sendReply } from "./http.js";
import type { LogEntry } from "./types.js";

export interface ControlTarget {
  log: LogEntry[];
  getFaults(): unknown;
  setFaults(faults: unknown): void;
  reset(): void;
  state(): unknown;
  loadSeed(seed: unknown): void;
  /** `POST upgrade_queries`: the service's rewrite of stored insight queries, now (query-upgrades.ts). */
  upgradeQueries(body: unknown): unknown;
  /** `POST sessions` `{"user": id}`: a browser session of that user (sessions.ts). */
  openSession(body: unknown): unknown;
  /** `POST cohorts/recalculate`: the queued cohort calculations run now (cohort-calculation.ts). */
  recalculateCohorts(body: unknown): unknown;
  /** `POST cohorts/upgrade_bytecode`: a service upgrade of the cohort filter compiler. */
  upgradeCohortBytecode(body: unknown): unknown;
}

/** A Host header's syntax: a name or an address, and a port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * Whether a request's `Host` names the emulator as only a client on this machine can (SPEC §8):
 * `localhost`, an address in 127.0.0.0/8 or `[::1]`; and, when the emulator was bound to another
 * address on purpose (`anyAddress`), any IP address. A name is never trusted: a web page whose DNS
 * name now resolves to 127.0.0.1 (DNS rebinding) sends that name, and would otherwise read the
 * emulator, keys included, as its own origin.
 */
export function hostAllowed(host: string | undefined, anyAddress: boolean): boolean {
  if (host === undefined || !HOST.test(host)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  if (hostname === "localhost") return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(hostname)) return anyAddress || hostname.startsWith("127.");
  if (hostname.startsWith("[")) return anyAddress || hostname === "[::1]";
  return false;
}

/** The answer to a request whose Host is not allowed: it reaches neither the API nor the control endpoints. */
export function disallowedHost(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  sendReply(res, {
    status: 400,
    body: errorBody(
      "invalid_request",
      "disallowed_host",
      "The emulator answers only requests addressed to it by a loopback name or address (localhost, 127.0.0.1, [::1]): a name a resolver could point at it is refused (DNS rebinding).",
    ),
  });
}

/** Hostnames a DNS-rebinding page cannot take over: IP literals and `localhost`. */
function isAddressLiteral(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname) ||
    (hostname.startsWith("[") && hostname.endsWith("]"))
  );
}

/**
 * Why a control request looks like it came from a browser page of another origin, or undefined.
 * The own origin is `http://` plus the Host the request was sent to, accepted only when that host is
 * an address literal or `localhost`: a rebound DNS name (evil.example resolving to 127.0.0.1) sends
 * a matching Host and Origin, so names are never trusted.
 */
export function browserRefusal(req: IncomingMessage): string | undefined {
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const host = req.headers.host;
  let own = false;
  if (host !== undefined && origin === `http://${host}`) {
    try {
      own = isAddressLiteral(new URL(origin).hostname);
    } catch {
      own = false;
    }
  }
  return own ? undefined : `Origin: ${origin}`;
}

function bad(res: ServerResponse, detail: string): void {
  sendReply(res, { status: 400, body: errorBody("validation_error", "invalid_input", detail) });
}

export async function handleControl(
  target: ControlTarget,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const refusal = browserRefusal(req);
  if (refusal !== undefined) {
    req.resume();
    return sendReply(res, {
      status: 403,
      body: errorBody(
        "authentication_error",
        "permission_denied",
        `Control endpoints refuse requests from web pages of other origins (${refusal}); call them from a tool, not a browser.`,
      ),
    });
  }
  const body = await readBody(req);
  if (body.kind === "aborted") return;
  if (body.kind === "too_large") return bad(res, "body too large");
  let json: unknown;
  if (body.raw.length > 0) {
    try {
      json = JSON.parse(body.raw.toString("utf8"));
    } catch {
      return bad(res, "body is not valid JSON");
    }
  }
  const route = `${req.method} ${url.pathname.replace(/\/+$/, "")}`;
  try {
    switch (route) {
      case "GET /_emulator/requests":
        return sendReply(res, { status: 200, body: { requests: target.log } });
      case "DELETE /_emulator/requests":
        target.log.length = 0;
        return sendReply(res, { status: 204 });
      case "GET /_emulator/faults":
        return sendReply(res, { status: 200, body: target.getFaults() });
      case "POST /_emulator/faults":
        target.setFaults(parseFaults(json ?? {}));
        return sendReply(res, { status: 200, body: target.getFaults() });
      case "POST /_emulator/reset":
        target.reset();
        return sendReply(res, { status: 204 });
      case "GET /_emulator/state":
        return sendReply(res, { status: 200, body: target.state() });
      case "POST /_emulator/seed":
        target.loadSeed(json);
        return sendReply(res, { status: 204 });
      case "POST /_emulator/upgrade_queries":
        return sendReply(res, { status: 200, body: target.upgradeQueries(json) });
      case "POST /_emulator/sessions":
        return sendReply(res, { status: 201, body: target.openSession(json) });
      case "POST /_emulator/cohorts/recalculate":
        return sendReply(res, { status: 200, body: target.recalculateCohorts(json) });
      case "POST /_emulator/cohorts/upgrade_bytecode":
        return sendReply(res, { status: 200, body: target.upgradeCohortBytecode(json) });
      default:
        return sendReply(res, {
          status: 404,
          body: errorBody("invalid_request", "not_found", "Unknown control endpoint."),
        });
    }
  } catch (error) {
    return bad(res, error instanceof Error ? error.message : String(error));
  }
}
