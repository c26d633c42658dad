/**
 * No command ever ends in a stack trace (SPEC §4): every command run with a path that cannot be read or
 * written, without its environment, against a host that does not answer, and without a terminal to
 * ask on, ends with one clear `error:` line and exit 1. The CLI runs in-process through `main`, with a
 * clock whose waits end at once so retries against a dead host take no time.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "posthog-gitops-shared/clock";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { useEmulator } from "../support/emulator.js";
import { memoryIo, TEST_NOW } from "../support/io.js";

const h = useEmulator();

/** Time that passes only when something waits: retries against a dead host cost nothing. */
function fastClock(): Clock {
  let now = Date.parse(TEST_NOW);
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
}

const DEAD = "http://127.0.0.1:1";
const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

interface Row {
  label: string;
  args: string[];
  env?: Record<string, string | undefined>;
  /** What the one error line says. */
  says: RegExp;
  /** Expected exit code (default 1). */
  code?: number;
}

const FILE = "project: 12345\ndashboards:\n  - name: Edge case board\n";

const rows: Row[] = [
  // Bad paths, read and written.
  {
    label: "validate a missing folder",
    args: ["validate", "nowhere"],
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "plan a missing folder",
    args: ["plan", "nowhere"],
    says: /error: the configuration has 1 error; nothing was sent/,
  },
  {
    label: "plan --out into a missing folder",
    args: ["plan", "p", "--out", "missing/dir/p.json"],
    says: /^error: cannot write the plan to missing\/dir\/p\.json: no such file or folder$/m,
  },
  {
    label: "plan --out onto a folder",
    args: ["plan", "p", "--out", "p"],
    says: /^error: cannot write the plan to p: it is a folder$/m,
  },
  {
    label: "apply --plan of a missing file",
    args: ["apply", "--auto-approve", "--plan", "gone.json"],
    says: /cannot read the saved plan .*gone\.json: no such file or folder/,
  },
  {
    label: "apply --plan of a file that is not JSON",
    args: ["apply", "--auto-approve", "--plan", "p/d.yaml"],
    says: /cannot read the saved plan .*d\.yaml: it is not JSON/,
  },
  {
    label: "pull --out under a file",
    args: ["pull", "--project", "12345", "--out", "p/d.yaml/sub"],
    says: /^error: cannot create the folder p\/d\.yaml\/sub: a part of the path is not a folder$/m,
  },
  {
    label: "status of a missing path",
    args: ["status", "nowhere"],
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "runs with --config of a missing path",
    args: ["runs", "x", "--config", "nowhere"],
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "logs with --config of a missing path",
    args: ["logs", "x", "--config", "nowhere"],
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "backfill with --config of a missing path",
    args: ["backfill", "x", "--start", "-2h", "--end", "-1h", "--config", "nowhere"],
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "retry with --config of a missing path",
    args: ["retry", "x", "--failed", "--since", "-1d", "--auto-approve", "--config", "nowhere"],
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "events with --config of a missing path",
    args: ["events", "--config", "nowhere"],
    env: { POSTHOG_PROJECT_ID: undefined },
    says: /nowhere: error: no such file or folder/,
  },
  {
    label: "emulator with a missing seed",
    args: ["emulator", "--port", "0", "--seed", "gone.json"],
    says: /^error: cannot start the emulator: .*gone\.json/m,
  },
  // A job summary that cannot be written.
  {
    label: "plan with an unwritable job summary",
    args: ["plan", "p"],
    env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: "/nonexistent/summary.md" },
    says: /^error: cannot append the plan to the job summary \(GITHUB_STEP_SUMMARY\) \/nonexistent\/summary\.md: no such file or folder$/m,
  },
  // No terminal to ask on.
  {
    label: "apply without a terminal",
    args: ["apply", "p"],
    says: /^error: apply asks for confirmation on a terminal; without one, pass --auto-approve$/m,
  },
  {
    label: "retry without a terminal",
    args: ["retry", "x", "--failed", "--since", "-1d"],
    says: /pass --auto-approve to confirm/,
  },
  // Bad option values.
  {
    label: "runs with a bad --limit",
    args: ["runs", "x", "--limit", "many"],
    says: /--limit must be a whole number/,
  },
  {
    label: "plan with a bad --concurrency",
    args: ["plan", "p", "--concurrency", "0"],
    says: /--concurrency must be a whole number from 1 to 64/,
  },
  {
    label: "plan with a bad --project",
    args: ["plan", "p", "--project", "prod"],
    says: /--project must be a project id/,
  },
  { label: "an unknown option", args: ["plan", "--frobnicate"], says: /unknown option '--frobnicate'/ },
];

const commandsNeedingTheService: [string, string[]][] = [
  ["plan", ["plan", "p"]],
  ["apply", ["apply", "p", "--auto-approve"]],
  ["pull", ["pull", "--project", "12345", "--out", "pulled"]],
  ["status", ["status", "--project", "12345"]],
  ["runs", ["runs", "x", "--project", "12345"]],
  ["retry", ["retry", "x", "--failed", "--since", "-1d", "--auto-approve", "--project", "12345"]],
  ["backfill", ["backfill", "x", "--start", "-2h", "--end", "-1h", "--project", "12345"]],
  ["logs", ["logs", "x", "--project", "12345"]],
  ["events", ["events", "--project", "12345"]],
];
for (const [command, args] of commandsNeedingTheService) {
  rows.push(
    {
      label: `${command} without POSTHOG_API_KEY`,
      args,
      env: { POSTHOG_API_KEY: undefined },
      says: /^error: POSTHOG_API_KEY is not set/m,
    },
    {
      label: `${command} against a host that does not answer`,
      args,
      env: { POSTHOG_HOST: DEAD },
      says: /^error: (reading project 12345: )?GET [^:]+: cannot connect to http:\/\/127\.0\.0\.1:1 \(connection refused\): check POSTHOG_HOST/m,
    },
    {
      label: `${command} against a host that is not https`,
      args,
      env: { POSTHOG_HOST: "ftp://example.com" },
      says: /^error: host must use https:\/\//m,
    },
  );
}

async function cli(row: Row) {
  const mem = memoryIo(h.env(row.env), h.dir, fastClock());
  const code = await main(["node", "posthog-gitops", ...row.args], mem.io.env, mem.io);
  return { code, stdout: mem.stdout, stderr: mem.stderr };
}

describe("every failure is one clear line and an exit code, never a stack trace", () => {
  it.each(rows)("$label", async (row) => {
    h.write("p/d.yaml", FILE);
    const result = await cli(row);
    const output = `${result.stdout}${result.stderr}`;
    expect(result.code, output).toBe(row.code ?? 1);
    expect(output).toMatch(row.says);
    expect(output).not.toMatch(STACK);
    expect(output).not.toContain("internal error");
    expect(output).not.toContain(h.key);
  });
});

describe("the built binary, as a user runs it", () => {
  it("ends in one line when dist/ is fine but input is closed and no terminal is there", async () => {
    mkdirSync(join(h.dir, "p"), { recursive: true });
    writeFileSync(join(h.dir, "p/d.yaml"), FILE);
    const { spawnCli } = await import("../support/emulator.js");
    const result = await spawnCli(["apply", "p"], h.env(), h.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: apply asks for confirmation on a terminal; without one, pass --auto-approve\n",
    );
  });
});
