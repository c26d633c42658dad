/**
 * The rate budget across runs (issue 12 item 7): a second client with the same host and key starts
 * from what the first spent, through a file named by a hash (never the key), written atomically with
 * mode 0600 and ignored whenever it cannot be used. Temporary directories only, fake clocks only.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "posthog-gitops-shared/clock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dashboardsApi } from "../../src/kinds/dashboard/service.js";
import { budgetFileId, readBudgetFile, writeBudgetFile } from "../../src/service/budget-file.js";
import { type ClientEvent, ServiceClient } from "../../src/service/client.js";
import { clientFromEnv, defaultBudgetFile } from "../../src/service/env.js";
import { type FakeServer, type Handler, json, startFakeServer } from "./fake-server.js";
import { dashboard } from "./samples.js";

const KEY = "phx_BudgetFileKey0123456789abcdef";
/** Wall-clock epoch ms as a test picks it: the file holds times comparable across processes. */
const T0 = Date.parse("2026-11-20T12:00:00Z");
const WINDOWS = { general: [{ limit: 5, ms: 60_000 }] };

let server: FakeServer;
let dir: string;
let file: string;
const answerDashboard: Handler = (req, res) => json(res, 200, dashboard(Number(req.path.split("/")[5])));

beforeAll(async () => {
  server = await startFakeServer(answerDashboard);
});
afterAll(() => server.close());
beforeEach(() => {
  server.setHandler(answerDashboard);
  dir = mkdtempSync(join(tmpdir(), "phgo-budget-"));
  file = join(dir, "cache", "posthog-gitops", "rate-budget-test.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A clock at `start` whose sleeps advance it; `slept` records them. */
function clockAt(start: number) {
  const slept: number[] = [];
  let now = start;
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
  return { clock, slept };
}

function session(
  clock: Clock,
  options: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {},
): { client: ServiceClient; events: ClientEvent[] } {
  const events: ClientEvent[] = [];
  const client = new ServiceClient({
    host: server.url,
    apiKey: KEY,
    clock,
    rateWindows: WINDOWS,
    budgetFile: file,
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { client, events };
}

async function reads(client: ServiceClient, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) await dashboardsApi(client).get(1, i);
}

describe("a second run", () => {
  it("starts from what the first spent, and without the file it would not", async () => {
    const first = clockAt(T0);
    const a = session(first.clock);
    await reads(a.client, 5);
    await a.client.close();

    const second = clockAt(T0 + 10_000);
    const b = session(second.clock);
    await reads(b.client, 1);
    await b.client.close();
    // The first run's five answers (at T0) leave the 60 s window at T0 + 60 s: 50 s from now.
    expect(second.slept).toEqual([50_000]);
    expect(b.events[0]).toEqual({
      type: "wait",
      reason: "rate-limit",
      ms: 50_000,
      method: "GET",
      path: "dashboards/1",
    });

    const fresh = clockAt(T0 + 10_000);
    const c = session(fresh.clock, { budgetFile: undefined });
    await reads(c.client, 1);
    await c.client.close();
    expect(fresh.slept).toEqual([]);
  });

  it("forgets answers older than the longest window", async () => {
    const a = session(clockAt(T0).clock);
    await reads(a.client, 5);
    await a.client.close();
    const later = clockAt(T0 + 60_001);
    const b = session(later.clock);
    await reads(b.client, 5);
    await b.client.close();
    expect(later.slept).toEqual([]);
    const saved = readBudgetFile(file, budgetFileId(server.url, KEY), T0 + 60_001);
    expect(saved?.general.answers).toEqual([T0 + 60_001, T0 + 60_001, T0 + 60_001, T0 + 60_001, T0 + 60_001]);
  });

  it("honours a Retry-After the first run was given", async () => {
    let throttle = true;
    server.setHandler((req, res) => {
      if (throttle) {
        throttle = false;
        return json(res, 429, { detail: "slow down" }, { "retry-after": "30" });
      }
      answerDashboard(req, res, undefined as never);
    });
    const a = session(clockAt(T0).clock, { maxRetries: 0 });
    await expect(dashboardsApi(a.client).get(1, 1)).rejects.toThrow("429");
    await a.client.close();
    const b = session(clockAt(T0 + 1_000).clock);
    await reads(b.client, 1);
    await b.client.close();
    expect(b.events[0]).toMatchObject({ type: "wait", reason: "retry-after", ms: 29_000 });
  });

  it("merges two runs that wrote at once, without counting the file's answers twice", async () => {
    const a = session(clockAt(T0).clock);
    const b = session(clockAt(T0 + 1).clock);
    await reads(a.client, 2);
    await reads(b.client, 2);
    await a.client.close();
    await b.client.close();
    await b.client.close(); // closing twice is harmless
    // Writing the same run again adds nothing: each time counts as often as its larger side has it.
    const id = budgetFileId(server.url, KEY);
    const again = { answers: [T0 + 1, T0 + 1], pausedUntil: 0 };
    const horizons = { general: 60_000, events: 60_000 };
    writeBudgetFile(file, id, T0 + 1, { general: again, events: { answers: [], pausedUntil: 0 } }, horizons);
    const c = session(clockAt(T0 + 2).clock);
    await reads(c.client, 1);
    await c.client.close();
    const saved = readBudgetFile(file, budgetFileId(server.url, KEY), T0 + 2);
    expect(saved?.general.answers).toEqual([T0, T0, T0 + 1, T0 + 1, T0 + 2]);
  });
});

describe("the file", () => {
  it("is named and filled by a hash, never the key, and written 0600 without leftovers", async () => {
    const a = session(clockAt(T0).clock);
    await reads(a.client, 2);
    await a.client.close();
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({
      format: "posthog-gitops/rate-budget",
      version: 1,
      id: budgetFileId(server.url, KEY),
      budgets: {
        general: { answers: [T0, T0], paused_until: 0 },
        events: { answers: [], paused_until: 0 },
      },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, "cache", "posthog-gitops"))).toEqual(["rate-budget-test.json"]);
    expect(budgetFileId(server.url, KEY)).toMatch(/^[0-9a-f]{16}$/);
    expect(budgetFileId(server.url, `${KEY}x`)).not.toBe(budgetFileId(server.url, KEY));
    expect(budgetFileId("https://eu.posthog.com", KEY)).not.toBe(budgetFileId("https://us.posthog.com", KEY));
  });

  const spent = () => ({
    format: "posthog-gitops/rate-budget",
    version: 1,
    id: budgetFileId(server.url, KEY),
    budgets: { general: { answers: [T0, T0, T0, T0, T0], paused_until: 0 } },
  });

  it.each([
    ["corrupt", () => writeFileSync(file, "{not json")],
    ["another key's", () => writeFileSync(file, JSON.stringify({ ...spent(), id: "0000000000000000" }))],
    ["another format", () => writeFileSync(file, JSON.stringify({ ...spent(), version: 2 }))],
    [
      "with a wrong type",
      () => writeFileSync(file, JSON.stringify({ ...spent(), budgets: { general: { answers: ["x"] } } })),
    ],
    ["a directory", () => mkdirSync(file)],
    ["a symlink", () => symlinkSync(join(dir, "elsewhere.json"), file)],
    ["too large", () => writeFileSync(file, `${JSON.stringify(spent())}${" ".repeat(1_000_001)}`)],
  ])("is ignored when it is %s", async (_what, make) => {
    mkdirSync(join(dir, "cache", "posthog-gitops"), { recursive: true });
    writeFileSync(join(dir, "elsewhere.json"), JSON.stringify(spent()));
    make();
    const time = clockAt(T0 + 1_000);
    const a = session(time.clock);
    await reads(a.client, 1);
    await expect(a.client.close()).resolves.toBeUndefined();
    expect(time.slept).toEqual([]);
  });

  it("is believed when it is right (the control for the cases above)", async () => {
    mkdirSync(join(dir, "cache", "posthog-gitops"), { recursive: true });
    writeFileSync(file, JSON.stringify(spent()));
    const time = clockAt(T0 + 1_000);
    const a = session(time.clock);
    await reads(a.client, 1);
    await a.client.close();
    expect(time.slept).toEqual([59_000]);
  });

  it("never fails a run when its directory cannot be written", async () => {
    writeFileSync(join(dir, "cache"), "a file where the cache directory should be");
    const a = session(clockAt(T0).clock);
    await reads(a.client, 1);
    await expect(a.client.close()).resolves.toBeUndefined();
    expect(existsSync(file)).toBe(false);
    if (process.getuid?.() !== 0) {
      // Permissions bind only when not running as root.
      rmSync(join(dir, "cache"));
      mkdirSync(join(dir, "cache"), { mode: 0o500 });
      const b = session(clockAt(T0).clock);
      await reads(b.client, 1);
      await expect(b.client.close()).resolves.toBeUndefined();
      chmodSync(join(dir, "cache"), 0o700);
    }
  });

  it("believes a saved pause for at most two minutes", () => {
    mkdirSync(join(dir, "cache", "posthog-gitops"), { recursive: true });
    const id = budgetFileId(server.url, KEY);
    writeFileSync(
      file,
      JSON.stringify({ ...spent(), budgets: { general: { answers: [], paused_until: T0 + 9e9 } } }),
    );
    expect(readBudgetFile(file, id, T0)?.general.pausedUntil).toBe(T0 + 120_000);
    writeBudgetFile(
      file,
      id,
      T0,
      { general: { answers: [], pausedUntil: 0 }, events: { answers: [], pausedUntil: 0 } },
      {
        general: 60_000,
        events: 60_000,
      },
    );
    expect(readBudgetFile(file, id, T0)?.general.pausedUntil).toBe(T0 + 120_000);
  });
});

describe("the default place", () => {
  const host = "https://eu.posthog.com";

  it("is the XDG cache, else ~/.cache, with the hash in the name; nowhere for loopback hosts", () => {
    const name = `rate-budget-${budgetFileId(host, KEY)}.json`;
    expect(defaultBudgetFile({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" }, host, KEY)).toBe(
      `/x/cache/posthog-gitops/${name}`,
    );
    expect(defaultBudgetFile({ HOME: "/home/u" }, host, KEY)).toBe(`/home/u/.cache/posthog-gitops/${name}`);
    expect(defaultBudgetFile({ XDG_CACHE_HOME: "relative", HOME: "/home/u" }, host, KEY)).toBe(
      `/home/u/.cache/posthog-gitops/${name}`,
    );
    expect(defaultBudgetFile({}, host, KEY)).toBeUndefined();
    expect(defaultBudgetFile({ HOME: "relative/home" }, host, KEY)).toBeUndefined();
    expect(defaultBudgetFile({ HOME: "/home/u" }, "http://127.0.0.1:8010", KEY)).toBeUndefined();
    expect(defaultBudgetFile({ HOME: "/home/u" }, host, KEY)).not.toContain(KEY);
  });

  it("is used by clientFromEnv unless POSTHOG_GITOPS_NO_CACHE=1", async () => {
    const env = { POSTHOG_API_KEY: KEY, POSTHOG_HOST: host, XDG_CACHE_HOME: dir };
    const expected = defaultBudgetFile(env, host, KEY)!;
    expect(expected.startsWith(dir)).toBe(true);
    await clientFromEnv({ ...env, POSTHOG_GITOPS_NO_CACHE: "1" }).client.close();
    expect(existsSync(expected)).toBe(false);
    await clientFromEnv(env).client.close();
    expect(existsSync(expected)).toBe(true);
    expect(readFileSync(expected, "utf8")).not.toContain(KEY);
  });
});
