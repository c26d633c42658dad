/**
 * Builds the client from the environment and command-line overrides:
 * - POSTHOG_HOST (default https://us.posthog.com), `--host` wins; `http://` only for loopback hosts
 *   (127.0.0.0/8, ::1, localhost), since the key would otherwise cross the network in clear text.
 * - POSTHOG_API_KEY, required; a missing key is a UserError naming the variable.
 * - POSTHOG_PROJECT_ID, `--project` wins (a file's `project:` wins over both, decided by the caller).
 * - POSTHOG_RATE_LIMIT, e.g. `480/minute,4800/hour` (units second, minute, hour or `Ns`): the budget of
 *   the general endpoints; events keep their own lower defaults.
 * - The spent budget is remembered between runs in the user's cache (`defaultBudgetFile`), unless
 *   POSTHOG_GITOPS_NO_CACHE=1.
 */
import { isIP } from "node:net";
import { isAbsolute, join } from "node:path";
import type { Clock } from "posthog-gitops-shared/clock";
import { UserError } from "../errors.js";
import { cut } from "../text.js";
import type { RateWindow } from "./budget.js";
import { budgetFileId } from "./budget-file.js";
import { type ClientOptions, ServiceClient } from "./client.js";

export interface ConnectionOverrides {
  host?: string | undefined;
  project?: string | number | undefined;
  concurrency?: string | number | undefined;
  verbose?: boolean | undefined;
}

export interface Connection {
  client: ServiceClient;
  host: string;
  /** From `--project` or POSTHOG_PROJECT_ID; undefined when neither is set. */
  project: string | undefined;
}

export function clientFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  overrides: ConnectionOverrides = {},
  log?: (line: string) => void,
  clock?: Clock,
  /** Progress events for stderr (SPEC §4) and their thresholds. */
  progress: Pick<ClientOptions, "onEvent" | "notice" | "hideSecret"> = {},
): Connection {
  const host = checkHost(overrides.host ?? env.POSTHOG_HOST ?? "https://us.posthog.com");
  const apiKey = env.POSTHOG_API_KEY;
  if (!apiKey?.trim()) {
    throw new UserError(
      "POSTHOG_API_KEY is not set: export a personal API key (phx_...) to reach the service",
    );
  }
  checkApiKey(apiKey.trim());
  const concurrency = Number(overrides.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new UserError(`--concurrency must be a whole number from 1 to 64, got ${overrides.concurrency}`);
  }
  const rate = env.POSTHOG_RATE_LIMIT;
  const budgetFile =
    env.POSTHOG_GITOPS_NO_CACHE === "1" ? undefined : defaultBudgetFile(env, host, apiKey.trim());
  const client = new ServiceClient({
    host,
    apiKey: apiKey.trim(),
    concurrency,
    ...(budgetFile ? { budgetFile } : {}),
    ...progress,
    ...(rate ? { rateWindows: { general: parseRateLimit(rate, "POSTHOG_RATE_LIMIT") } } : {}),
    ...(overrides.verbose && log ? { log } : {}),
    ...(clock ? { clock } : {}),
  });
  const project = overrides.project ?? env.POSTHOG_PROJECT_ID;
  return { client, host, project: project === undefined || project === "" ? undefined : String(project) };
}

/**
 * Refuses, before any request, a key that cannot be a personal API key: a project API key (`phc_…`,
 * the public token that sends events) reaches none of the endpoints the tool uses. The key is never
 * named in the message.
 */
export function checkApiKey(apiKey: string): void {
  if (apiKey.startsWith("phc_")) {
    throw new UserError(
      "POSTHOG_API_KEY is a project API key (it starts with phc_ and only sends events): a personal API key (phx_…) is needed (PostHog: Settings → Personal API keys)",
    );
  }
}

/**
 * Where the spent rate budget of `host` and `apiKey` is remembered between runs (budget-file.ts):
 * `$XDG_CACHE_HOME/posthog-gitops/rate-budget-<hash>.json`, else under `$HOME/.cache`; the name holds
 * a hash of host and key, never the key. Undefined (nothing remembered) when neither variable is an
 * absolute path, and for loopback hosts: the emulator starts on a new port and with empty limits
 * each run, so its files would only pile up (and test runs must not write into a user's cache).
 */
export function defaultBudgetFile(
  env: Readonly<Record<string, string | undefined>>,
  host: string,
  apiKey: string,
): string | undefined {
  const url = new URL(host);
  if (isLoopback(url.hostname)) return undefined;
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const cache = xdg && isAbsolute(xdg) ? xdg : home && isAbsolute(home) ? join(home, ".cache") : undefined;
  if (cache === undefined) return undefined;
  return join(cache, "posthog-gitops", `rate-budget-${budgetFileId(url.origin, apiKey)}.json`);
}

/**
 * Validates a host URL and refuses clear-text HTTP to anything but loopback. Returns the origin. The
 * service lives at the root of its host, so a path, a query, a fragment or credentials in the URL are
 * refused rather than dropped: `https://us.posthog.com/foo` is a mistake, not the same host. (Only a
 * trailing `/` is accepted.) Credentials and queries are never echoed: they may hold something secret;
 * every message shows the host as `withoutCredentials` does.
 */
export function checkHost(raw: string): string {
  const bare = withoutScheme(raw);
  if (bare !== undefined) throw new UserError(bare);
  const shown = withoutCredentials(raw);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError(`POSTHOG_HOST / --host is not a URL: ${shown}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    // Without `//`, what URL takes for a scheme may be a user name (`user:password@host`).
    const scheme = raw.includes("//") && shown === raw ? `${url.protocol}//` : shown;
    throw new UserError(`host must use https:// (got ${scheme})`);
  }
  const extra =
    url.username !== "" || url.password !== ""
      ? "a user name or password"
      : url.pathname !== "/" && url.pathname !== ""
        ? `a path (${cut(url.pathname, 60)})`
        : url.search !== "" || raw.includes("?")
          ? "a query (?…)"
          : url.hash !== "" || raw.includes("#")
            ? "a fragment (#…)"
            : undefined;
  if (extra !== undefined) {
    throw new UserError(
      `POSTHOG_HOST / --host must be the service's address only, but it has ${extra}: use ${url.origin}`,
    );
  }
  if (url.protocol === "https:") return url.origin;
  if (!isLoopback(url.hostname)) {
    throw new UserError(
      `refusing http:// for ${url.hostname}: the API key would travel unencrypted; use https://`,
    );
  }
  return url.origin;
}

/**
 * The message for a host written without a scheme (`us.posthog.com`, `localhost:8010`), which URL
 * parsing rejects or misreads (`localhost:` as a scheme): the URL to write instead, https:// unless
 * loopback. Only a plain name or address and port is echoed; anything else (`user:password@host`) is
 * left to the checks below, which never echo credentials.
 */
function withoutScheme(raw: string): string | undefined {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  const plain = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?\/?$/i.exec(text);
  if (plain === null) return undefined;
  const host = text.replace(/\/$/, "");
  const scheme = isLoopback(plain[1] ?? "") ? "http" : "https";
  return `POSTHOG_HOST / --host needs a scheme: write ${scheme}://${host} (not ${host})`;
}

/**
 * A host as given, with anything that may be credentials left out: whatever stands before the last
 * `@` of the address (after `scheme://`, or from the start without one), whether or not it parses.
 */
export function withoutCredentials(raw: string): string {
  const slashes = raw.indexOf("//");
  const start = slashes < 0 ? 0 : slashes + 2;
  const at = raw.lastIndexOf("@");
  return at < start ? raw : `${raw.slice(0, start)}${raw.slice(at + 1)}`;
}

/**
 * Loopback as written: 127.0.0.0/8, `[::1]` and `localhost`. Never another name, not even one under
 * `.localhost`: a resolver (a DNS server, a hosts file) may point any name elsewhere.
 */
export function isLoopback(hostname: string): boolean {
  const name = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (name === "localhost") return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  return isIP(name) === 6 && new URL(`http://[${name}]`).hostname === "[::1]";
}

const UNITS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000 };

/** `480/minute,4800/hour` or `20/2s` → windows; a UserError naming `source` when unreadable. */
export function parseRateLimit(text: string, source: string): RateWindow[] {
  const windows = text.split(",").map((part) => {
    const match = part.trim().match(/^(\d+)\s*\/\s*(?:(second|minute|hour)s?|(\d+(?:\.\d+)?)\s*s)$/);
    const limit = Number(match?.[1]);
    const ms = match?.[2] ? UNITS[match[2]] : Number(match?.[3]) * 1000;
    if (!match || !(limit >= 1) || !ms || !(ms > 0)) {
      throw new UserError(`${source} must look like 480/minute,4800/hour (got "${text}")`);
    }
    return { limit, ms };
  });
  return windows;
}
