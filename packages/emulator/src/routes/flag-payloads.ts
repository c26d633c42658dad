/**
 * Flag payloads as the service stores them: every value a JSON-encoded string (Python's `json.dumps`,
 * so `{"color": "blue"}` with its spaces and ASCII escapes), and for flags with `has_encrypted_payloads`
 * ciphertext, which a personal API key reads back in plain text (service-api.md §10.2). The cipher is
 * the emulator's own (AES-256-GCM under a fixed key, so a state file survives a restart); only the
 * service's behaviour around it is modelled.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** What any caller but a personal API key reads instead of an encrypted payload. */
export const REDACTED_PAYLOAD_VALUE = '"********* (encrypted)"';

const KEY = createHash("sha256").update("posthog-gitops emulator flag payload key").digest();
const PREFIX = "emu-enc:";

/** `iv` only for seeds, whose data must be the same on every start; writes take a random one. */
export function encryptPayload(plain: string, iv: Buffer = randomBytes(12)): string {
  const cipher = createCipheriv("aes-256-gcm", KEY, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The plain text of a stored ciphertext; a value that is not one (a seed's plain text) reads as is. */
export function decryptPayload(stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  try {
    const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", KEY, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return stored;
  }
}

/** A string as Python's `json.dumps` writes it (ensure_ascii: every code unit outside space..~ escaped). */
function pyQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    for (let i = 0; i < ch.length; i++) {
      const unit = ch.charCodeAt(i);
      if (ch === '"') out += '\\"';
      else if (ch === "\\") out += "\\\\";
      else if (unit === 0x0a) out += "\\n";
      else if (unit === 0x0d) out += "\\r";
      else if (unit === 0x09) out += "\\t";
      else if (unit === 0x08) out += "\\b";
      else if (unit === 0x0c) out += "\\f";
      else if (unit < 0x20 || unit > 0x7e) out += `\\u${unit.toString(16).padStart(4, "0")}`;
      else out += ch[i];
    }
  }
  return `${out}"`;
}

/** Python's `json.dumps(value)` with its default separators (`", "` and `": "`). */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("NaN and Infinity are not JSON");
    return JSON.stringify(value);
  }
  if (typeof value === "string") return pyQuote(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pyQuote(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
}

/** How Python's `repr` prints a JSON value inside a message (`['@posthog.com']`, `True`, `None`). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}
