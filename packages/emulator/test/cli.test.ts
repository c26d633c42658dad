/**
 * The package's command, `posthog-gitops-emulator`: in-process through `main` (help, version, a bad
 * option as one line and exit 1, the listening line, a stop), and the built bin in a child process as a
 * tester runs it (`npm run build` first: the package's `npm test` and the repository's build do).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type CliIo, main } from "../src/cli.js";
import { testClock } from "./support/clock.js";

const BIN = new URL("../bin/posthog-gitops-emulator.js", import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

function memory() {
  let stop: (() => void) | undefined;
  const out = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    onTerminate(handler) {
      stop = handler;
      return () => {
        stop = undefined;
      };
    },
    clock: testClock(),
  };
  return { io, out, stop: () => stop?.() };
}

describe("main", () => {
  it("prints its help and its version, and starts nothing", async () => {
    const help = memory();
    expect(await main(["--help"], help.io)).toBe(0);
    expect(help.out.stdout).toMatch(/^Usage: posthog-gitops-emulator \[options\]/);
    for (const option of [
      "--port",
      "--seed",
      "--state",
      "--api-key",
      "--latency-ms",
      "--error-rate",
      "--rate-limit",
    ])
      expect(help.out.stdout).toContain(option);
    const shown = memory();
    expect(await main(["-v"], shown.io)).toBe(0);
    expect(shown.out.stdout).toBe(`${version}\n`);
  });

  it("refuses an unknown option or a bad value in one line, exit 1, without listening", async () => {
    for (const [args, message] of [
      [["--prot", "1"], /^posthog-gitops-emulator: Unknown option '--prot'.* \(see --help\)\n$/],
      [
        ["--port", "70000"],
        /^posthog-gitops-emulator: --port must be an integer between 0 and 65535, got "70000"\n$/,
      ],
      [
        ["--error-rate", "2"],
        /^posthog-gitops-emulator: --error-rate must be a number between 0 and 1, got "2"\n$/,
      ],
      [
        ["--port", "0", "--rate-limit", "lots"],
        /^posthog-gitops-emulator: cannot start: invalid rate limit "lots"/,
      ],
      [["--port", "0", "--seed", "/nonexistent/seed.json"], /^posthog-gitops-emulator: cannot start: ENOENT/],
    ] as const) {
      const m = memory();
      expect(await main(args, m.io), args.join(" ")).toBe(1);
      expect(m.out.stderr).toMatch(message);
      expect(m.out.stderr.split("\n")).toHaveLength(2);
      expect(m.out.stdout).toBe("");
    }
  });

  it("prints one listening line, serves the seed with the key it was given, and stops when told", async () => {
    const m = memory();
    const done = main(["--port", "0", "--api-key", "phx_cli_test", "--rate-limit", "none"], m.io);
    let url = "";
    for (let i = 0; i < 200 && !url; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      url = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(m.out.stdout)?.[1] ?? "";
    }
    expect(url).not.toBe("");
    const res = await fetch(`${url}/api/projects/12345/dashboards/`, {
      headers: { Authorization: "Bearer phx_cli_test" },
    });
    expect(res.status).toBe(200);
    m.stop();
    expect(await done).toBe(0);
    await expect(fetch(`${url}/_emulator/requests`)).rejects.toThrow();
    expect(m.out.stderr).toBe("");
  });
});

describe("the bin", () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });

  it("runs as `posthog-gitops-emulator --port 0` until SIGTERM, then exits 0", async () => {
    const child = spawn(process.execPath, [BIN, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(
        () => reject(new Error(`no listening line; got ${JSON.stringify(out)}`)),
        10_000,
      );
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve(out.slice(0, out.indexOf("\n")));
        }
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice("listening on ".length);
    const res = await fetch(`${url}/api/projects/12345/dashboards/`, {
      headers: { Authorization: "Bearer phx_emulator" },
    });
    expect(res.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
