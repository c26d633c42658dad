/**
 * Interrupts, as a user meets them (SPEC §3): Ctrl-C and Ctrl-D at the confirmation prompt (a real
 * pseudo-terminal, through util-linux `script`), and SIGINT / SIGTERM in the middle of a long apply
 * (the built binary, with the emulator answering slowly): one clear line, every action accounted for,
 * exit 130 / 143, and the next apply converges without duplicates.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { systemClock } from "posthog-gitops-shared/clock";
import { describe, expect, it } from "vitest";
import { gateProxy } from "../e2e/gate-proxy.js";
import { childEnv } from "../support/child-env.js";
import { KEY, ROOT, useEmulator } from "../support/emulator.js";

// The spawned CLI reads the system clock, so the emulator does too.
const h = useEmulator({ clock: systemClock });
const BIN = join(ROOT, "bin/posthog-gitops.js");
const STACK = /^\s+at .+:\d+:\d+\)?$/m;

interface Running {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number>;
  /** Resolves once the output contains `text` (bounded by the test's timeout). */
  waitFor(text: string): Promise<void>;
}

function start(command: string, args: string[], env: Record<string, string | undefined>): Running {
  const child = spawn(command, args, { cwd: h.dir, env: childEnv({ NO_COLOR: "1", ...env }), stdio: "pipe" });
  let output = "";
  const waiters: Array<() => void> = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exit = new Promise<number>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  );
  const waitFor = async (text: string) => {
    while (!output.includes(text)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { child, output: () => output, exit, waitFor };
}

/** The CLI on a pseudo-terminal: stdin, stdout and stderr are one terminal, as in a shell. */
function onTerminal(args: string[]): Running {
  const line = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return start("script", ["-qfec", line, "/dev/null"], h.env());
}

/**
 * A loopback proxy in front of the emulator that holds the requests `hold` picks (never answers them)
 * and forwards the rest; `holding` resolves when the first one is being held.
 */
async function holdingProxy(target: () => string, hold: (method: string) => boolean) {
  let held: () => void = () => {};
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const server = createServer(async (req, res) => {
    if (hold(req.method ?? "")) {
      held();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v;
    }
    const answer = await fetch(`${target()}${req.url}`, { method: req.method ?? "GET", headers });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    holding,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function boards(n: number): string {
  const items = Array.from({ length: n }, (_, i) => `  - name: Interrupted ${String(i).padStart(2, "0")}`);
  return `project: 12345\ndashboards:\n${items.join("\n")}\n`;
}

async function writes() {
  return (await h.requests()).filter((r) => r.method !== "GET");
}

describe("at the confirmation prompt", () => {
  const cases: [string, string, number][] = [
    ["Ctrl-C", "\u0003", 130],
    ["Ctrl-D (end of input)", "\u0004", 1],
    ["an answer other than yes", "no\r", 1],
  ];
  it.each(cases)("%s cancels with one line, nothing sent", async (_label, keys, code) => {
    h.write("p/d.yaml", boards(1));
    await h.clearRequests();
    const run = onTerminal(["apply", "p"]);
    await run.waitFor("Only 'yes' will be accepted: ");
    run.child.stdin?.write(keys);
    expect(await run.exit).toBe(code);
    expect(run.output()).toContain("Apply cancelled. Nothing was changed.");
    expect(run.output()).not.toMatch(STACK);
    expect(run.output()).not.toContain("internal error");
    expect(await writes()).toEqual([]);
  });

  it("retry's prompt cancels the same way", async () => {
    const run = onTerminal(["retry", "Events to S3", "--failed", "--since", "-7d", "--project", "12345"]);
    await run.waitFor("Only 'yes' will be accepted: ");
    run.child.stdin?.write("\u0004");
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain("Retry cancelled. Nothing was sent.");
    expect(run.output()).not.toMatch(STACK);
  });

  it("yes applies", async () => {
    h.write("p/d.yaml", boards(1));
    const run = onTerminal(["apply", "p"]);
    await run.waitFor("Only 'yes' will be accepted: ");
    run.child.stdin?.write("yes\r");
    expect(await run.exit).toBe(0);
    expect(run.output()).toContain("Apply complete: 1 succeeded, 0 failed, 0 skipped.");
  });
});

describe("during a long apply", () => {
  const applyArgs = ["apply", "p", "--auto-approve", "--concurrency", "2"];

  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal}: nothing new starts, requests in flight finish, every action has its line, exit ${code}`, async () => {
      h.write("p/d.yaml", boards(12));
      await h.faults({ latency_ms: 300 });
      await h.clearRequests();
      const run = start(process.execPath, [BIN, ...applyArgs], h.env());
      await run.waitFor("✓ + create");
      run.child.kill(signal);
      expect(await run.exit).toBe(code);
      const out = run.output();
      expect(out).toContain("Stopping: no new request is sent; waiting for those already sent");
      const done = out.match(/^✓ \+ create /gm)?.length ?? 0;
      const notStarted = out.match(/^· \+ create .*not started: the run was stopped$/gm)?.length ?? 0;
      expect(done).toBeGreaterThan(0);
      expect(notStarted).toBeGreaterThan(0);
      expect(done + notStarted).toBe(12);
      expect(out).toContain(
        `Apply stopped: ${done} succeeded, 0 failed, 0 skipped, ${notStarted} not started`,
      );
      expect(out).not.toMatch(STACK);
      // Every create that was sent finished; none was sent after the signal.
      expect((await writes()).filter((r) => r.method === "POST")).toHaveLength(done);

      await h.faults({});
      const again = start(process.execPath, [BIN, ...applyArgs], h.env());
      expect(await again.exit, again.output()).toBe(0);
      expect(again.output()).toContain(`Apply complete: ${notStarted} succeeded`);
      const names = (await h.state()).dashboards
        .map((d: { name: string }) => d.name)
        .filter((n: string) => n.startsWith("Interrupted"));
      expect(names).toHaveLength(12);
      expect(new Set(names).size).toBe(12);
    });
  }

  it("SIGTERM while the last action is in flight: it finishes, and the summary says stopped, as exit 143 does", async () => {
    h.write("p/d.yaml", boards(1));
    const gate = await gateProxy(
      () => h.url,
      (r) => r.method === "POST",
    );
    try {
      const run = start(process.execPath, [BIN, ...applyArgs], h.env({ POSTHOG_HOST: gate.url }));
      await gate.holding;
      run.child.kill("SIGTERM");
      await run.waitFor("Stopping");
      gate.open();
      expect(await run.exit).toBe(143);
      const out = run.output();
      expect(out).toMatch(/^✓ \+ create · dashboard "Interrupted 00"/m);
      expect(out).not.toContain("Apply complete");
      expect(out).toContain(
        "Apply stopped: 1 succeeded, 0 failed, 0 skipped; every action had finished when SIGTERM came, but the created names were not checked for duplicates (run plan to check).",
      );
    } finally {
      await gate.close();
    }
  });

  it("a second Ctrl-C quits at once, without waiting for the requests in flight", async () => {
    h.write("p/d.yaml", boards(4));
    // Creates are held far longer than this test may take: only an immediate exit lets it pass.
    const proxy = await holdingProxy(
      () => h.url,
      (method) => method === "POST",
    );
    try {
      const run = start(process.execPath, [BIN, ...applyArgs], h.env({ POSTHOG_HOST: proxy.url }));
      await proxy.holding;
      run.child.kill("SIGINT");
      await run.waitFor("Stopping");
      run.child.kill("SIGINT");
      expect(await run.exit).toBe(130);
      expect(run.output()).not.toMatch(STACK);
      expect(run.output()).not.toContain(KEY);
    } finally {
      await proxy.close();
    }
  }, 15_000);
});
