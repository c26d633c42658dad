import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../../src/commands/emulator.js";
import { memoryIo } from "../support/io.js";

const BIN = new URL("../../bin/posthog-gitops.js", import.meta.url).pathname;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Resolves with the first stdout line, or rejects after 10 s. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no output; got ${JSON.stringify(out)}`)), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf("\n");
      if (end >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
  });
}

describe("posthog-gitops emulator", () => {
  it("prints one listening line and serves the API until killed", async () => {
    const child = spawn(process.execPath, [BIN, "emulator", "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const line = await firstLine(child);
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice("listening on ".length);
    const res = await fetch(`${url}/api/projects/12345/dashboards/`, {
      headers: { Authorization: "Bearer phx_emulator" },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { count: number }).count).toBe(4);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("runs in-process until aborted, honours --api-key and persists --state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emulator-"));
    try {
      const stateFile = join(dir, "state.json");
      const mem = memoryIo();
      const stop = new AbortController();
      const done = run(
        { port: "0", apiKey: "phx_custom", state: stateFile, rateLimit: "none", signal: stop.signal },
        mem.io,
      );
      let url = "";
      for (let i = 0; i < 100 && !url; i++) {
        await new Promise((r) => setTimeout(r, 20));
        url = /listening on (\S+)/.exec(mem.stdout)?.[1] ?? "";
      }
      const auth = { Authorization: "Bearer phx_custom", "Content-Type": "application/json" };
      expect(
        (
          await fetch(`${url}/api/projects/12345/dashboards/`, {
            headers: { Authorization: "Bearer phx_emulator" },
          })
        ).status,
      ).toBe(401);
      const created = await fetch(`${url}/api/projects/12345/dashboards/`, {
        method: "POST",
        headers: auth,
        body: '{"name":"Kept"}',
      });
      expect(created.status).toBe(201);
      stop.abort();
      expect(await done).toBe(0);
      expect(mem.stdout).toBe(`listening on ${url}\n`);
      const saved = JSON.parse(readFileSync(stateFile, "utf8"));
      expect(saved.dashboards.some((d: { name: string }) => d.name === "Kept")).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses bad option values with a user error", async () => {
    const mem = memoryIo();
    await expect(run({ port: "70000" }, mem.io)).rejects.toThrow(/--port must be an integer/);
    await expect(run({ port: "0", rateLimit: "lots" }, mem.io)).rejects.toThrow(/invalid rate limit/);
    expect(mem.stdout).toBe("");
  });
});
