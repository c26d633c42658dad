/**
 * Requests that could hold the emulator's one thread: a flag search that a backtracking regular
 * expression would take forever over (PostHog's search is a pattern: the escaped term, each space any
 * run of spaces, hyphens and underscores), and an event property filter
 * with a catastrophic `regex` (the service's ClickHouse runs RE2, which is linear: so does the
 * emulator). The emulator runs as its own process (the package's built bin), so a request that blocked it
 * would show here as another request left unanswered, not as a hung test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";

const BIN = new URL("../bin/posthog-gitops-emulator.js", import.meta.url).pathname;
const KEY = "phx_emulator";
const P = "/api/projects/12345";
let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

async function start(): Promise<string> {
  child = spawn(process.execPath, [BIN, "--port", "0", "--rate-limit", "none"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const spawned = child;
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 10_000);
    spawned.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
  });
}

const call = (url: string, method: string, path: string, body?: unknown, timeoutMs = 60_000) =>
  fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });

/** While `hostile` is in flight, another request is answered within 3 s; then `hostile` answers too. */
async function stillAnswers(url: string, hostile: () => Promise<Response>): Promise<Response> {
  const pending = hostile();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const probe = await call(url, "GET", `${P}/dashboards/`, undefined, 3_000);
  expect(probe.status).toBe(200);
  return pending;
}

describe("hostile requests to the emulator", () => {
  it("a flag search with a long run of spaces answers at once: the run is one separator", async () => {
    const url = await start();
    const key = `a${"-".repeat(397)}y`;
    expect(
      (await call(url, "POST", `${P}/feature_flags/`, { key, name: `a${"-".repeat(2000)}` })).status,
    ).toBe(201);
    // Spaces inside the term (the ends are trimmed): 60 back-to-back `[\s\-_]*` would backtrack.
    const term = encodeURIComponent(`a${" ".repeat(60)}x`);
    const found = await stillAnswers(url, () => call(url, "GET", `${P}/feature_flags/?search=${term}`));
    expect(found.status).toBe(200);
    expect(((await found.json()) as { count: number }).count).toBe(0);
  });

  it("a regex property filter runs in linear time, as the service's RE2 does", async () => {
    const url = await start();
    const state = (await (await call(url, "GET", "/_emulator/state")).json()) as {
      events: Array<Record<string, unknown>>;
    };
    const template = state.events.find((e) => e.team_id === 12345);
    expect(template).toBeDefined();
    for (let i = 0; i < 20; i++) {
      state.events.push({
        ...template,
        id: `0190f1d2-0000-7000-8000-${String(i).padStart(12, "0")}`,
        properties: { $current_url: `${"a".repeat(5_000)}!` },
      });
    }
    expect((await call(url, "POST", "/_emulator/seed", state)).status).toBeLessThan(300);
    const filter = encodeURIComponent(
      JSON.stringify([{ key: "$current_url", operator: "regex", value: "^(a+)+$", type: "event" }]),
    );
    const answered = await stillAnswers(url, () => call(url, "GET", `${P}/events/?properties=${filter}`));
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { results: unknown[] }).results).toEqual([]);
    // RE2's syntax: what it cannot parse (a lookbehind) matches nothing, as before.
    const lookbehind = encodeURIComponent(
      JSON.stringify([{ key: "$current_url", operator: "regex", value: "(?<=a)!", type: "event" }]),
    );
    expect((await call(url, "GET", `${P}/events/?properties=${lookbehind}`)).status).toBe(200);
    const plain = encodeURIComponent(
      JSON.stringify([{ key: "$current_url", operator: "regex", value: "a{3}!$", type: "event" }]),
    );
    const hits = (await (await call(url, "GET", `${P}/events/?properties=${plain}`)).json()) as {
      results: unknown[];
    };
    expect(hits.results.length).toBeGreaterThanOrEqual(20);
  });
});
