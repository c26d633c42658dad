/**
 * Control endpoints under `/_emulator/` (docs/architecture.md): no auth, never faulted, throttled or
 * logged. `GET/DELETE requests`, `GET/POST faults`, `POST reset`, `GET state`, `POST seed`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "./errors.js";
import { parseFaults } from "./faults.js";
import { readBody, sendReply } from "./http.js";
import type { LogEntry } from "./server.js";

export interface ControlTarget {
  log: LogEntry[];
  getFaults(): unknown;
  setFaults(faults: unknown): void;
  reset(): void;
  state(): unknown;
  loadSeed(seed: unknown): void;
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
