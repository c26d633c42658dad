/**
 * Transport helpers: read a request body with the 1 MiB cap, parse JSON the way the service's parser
 * reports failures, and write replies (JSON, text, or an empty body).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, errorBody, parseError, type Reply } from "./errors.js";

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many bytes an oversized body is no longer drained: the socket is dropped. */
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;

export type BodyResult = { kind: "ok"; raw: Buffer } | { kind: "too_large" } | { kind: "aborted" };

export function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        resolve({ kind: "aborted" });
      } else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () =>
      resolve(size > MAX_BODY_BYTES ? { kind: "too_large" } : { kind: "ok", raw: Buffer.concat(chunks) }),
    );
    req.on("error", () => resolve({ kind: "aborted" }));
    req.on("close", () => resolve({ kind: "aborted" }));
  });
}

export function tooLarge(): ApiError {
  return new ApiError(
    413,
    errorBody("invalid_request", "request_too_large", `Request body exceeded ${MAX_BODY_BYTES} bytes.`),
  );
}

/** A file of a multipart body (DRF's `request.FILES`), among the body's other fields. */
export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly content: Buffer,
  ) {}
}

/**
 * A `multipart/form-data` body as DRF's MultiPartParser reads it: text fields as strings (a repeated
 * name gives the list of its values), file fields as `UploadedFile`s. A body without a boundary, or
 * that does not split on it, is the service's 400 "Multipart form parse error".
 */
function parseMultipart(raw: Buffer, contentType: string): Record<string, unknown> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2]?.trim();
  const failure = () =>
    new ApiError(
      400,
      errorBody(
        "invalid_request",
        "parse_error",
        "Multipart form parse error - Invalid boundary in multipart: None",
      ),
    );
  if (!marker) throw failure();
  const delimiter = Buffer.from(`--${marker}`);
  const out: Record<string, unknown> = {};
  let start = raw.indexOf(delimiter);
  if (start === -1) throw failure();
  for (let guard = 0; guard < 10_000; guard++) {
    const next = raw.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = raw.subarray(start + delimiter.length, next);
    start = next;
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd === -1) continue;
    const headers = part.subarray(0, headerEnd).toString("utf8");
    let body = part.subarray(headerEnd + 4);
    if (body.subarray(-2).toString() === "\r\n") body = body.subarray(0, -2);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) continue;
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    const value: unknown = filename !== undefined ? new UploadedFile(filename, body) : body.toString("utf8");
    const seen = out[name];
    out[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return out;
}

/**
 * Parses a JSON body; an empty body is `undefined`. Like DRF's FormParser, a form-encoded body is read
 * too, as an object of strings (a repeated key gives the list of its values), and like its
 * MultiPartParser a multipart one (with its files). Other content types are refused with 415.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const media = (contentType ?? "application/json").split(";")[0]?.trim().toLowerCase() ?? "";
  if (media === "multipart/form-data") return parseMultipart(raw, contentType ?? "");
  if (media === "application/x-www-form-urlencoded") {
    const form: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(raw.toString("utf8"))) {
      const seen = form[key];
      form[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    return form;
  }
  if (media !== "" && !media.endsWith("json")) {
    throw new ApiError(
      415,
      errorBody("invalid_request", "unsupported_media_type", `Unsupported media type "${media}" in request.`),
    );
  }
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : "invalid JSON");
  }
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | number> = { ...reply.headers };
  let payload: string | undefined;
  if (reply.text !== undefined) {
    payload = reply.text;
  } else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers["Content-Type"] = "application/json";
  }
  headers["Content-Length"] = payload === undefined ? 0 : Buffer.byteLength(payload);
  res.writeHead(reply.status, headers);
  res.end(payload);
}
