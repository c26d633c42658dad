/**
 * The SSRF guard the service runs on a Postgres or Redshift destination's host
 * (posthog/security/url_validation.py `validate_external_host`, production settings): a value that
 * is not a bare hostname or IP address is refused for its shape; a loopback, metadata or internal
 * name, or an IP literal in a private, loopback, link-local, multicast, reserved, unspecified or
 * carrier-grade NAT range, is refused as unreachable. The emulator resolves no names: a public-looking
 * name passes.
 */
import { isIP } from "node:net";

export const INVALID_HOST_MESSAGE =
  "Invalid host. Enter a hostname or IP address without credentials, scheme, or path.";
export const UNREACHABLE_HOST_MESSAGE =
  "Could not reach this host. Check that the hostname is correct and reachable from the internet.";

const LABEL = "[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?";
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
const METADATA_HOSTS = new Set(["169.254.169.254", "metadata.google.internal"]);
const INTERNAL_SUFFIXES = [
  ".local",
  ".internal",
  ".svc.cluster.local",
  ".cluster.local",
  ".consul",
  ".lan",
  ".home",
  ".corp",
  ".localdomain",
  ".home.arpa",
  ".intranet",
  ".priv",
];

function ipv4Internal(ip: string): boolean {
  const [a = 0, b = 0, c = 0] = ip.split(".").map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a >= 224
  );
}

function ipv6Internal(ip: string): boolean {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return ipv4Internal(mapped[1]);
  return (
    lower === "::" ||
    lower === "::1" ||
    /^fe[89ab]/.test(lower) ||
    /^f[cd]/.test(lower) ||
    lower.startsWith("ff") ||
    lower.startsWith("2001:db8")
  );
}

/** The service's refusal message for `host`, or undefined when it may be reached. */
export function hostRefusal(host: unknown): string | undefined {
  if (typeof host !== "string" || host.trim() === "") return INVALID_HOST_MESSAGE;
  const family = isIP(host);
  if (family === 0 && !HOSTNAME.test(host.toLowerCase())) return INVALID_HOST_MESSAGE;
  const name = host.toLowerCase().replace(/\.$/, "");
  if (METADATA_HOSTS.has(name) || name === "localhost") return UNREACHABLE_HOST_MESSAGE;
  if (INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return UNREACHABLE_HOST_MESSAGE;
  if (family === 4 && ipv4Internal(name)) return UNREACHABLE_HOST_MESSAGE;
  if (family === 6 && ipv6Internal(name)) return UNREACHABLE_HOST_MESSAGE;
  return undefined;
}
