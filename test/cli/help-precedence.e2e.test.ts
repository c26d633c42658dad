/**
 * One project precedence in every command (SPEC §4): a file's `project:` governs that file; --project,
 * else POSTHOG_PROJECT_ID, fills in for files without one; an explicit --project that disagrees with a
 * file is an error naming both, before any request. And every command's --help names the environment
 * variables it reads with an example; --version is package.json's.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";

const h = useEmulator();
const S3 = "Events to S3";
const FILE = `project: 12345\nbatch_exports:\n  - name: ${S3}\n`;

const COMMANDS: [string, string[]][] = [
  ["plan", ["plan"]],
  ["apply", ["apply", "--auto-approve"]],
  ["status", ["status"]],
  ["runs", ["runs", S3]],
  ["retry", ["retry", S3, "--failed", "--since", "-1h", "--auto-approve"]],
  ["backfill", ["backfill", S3, "--start", "-3h", "--end", "-2h"]],
  ["logs", ["logs", S3]],
  ["events", ["events", "--limit", "1"]],
];

describe("one project precedence, the same in every command reading posthog/", () => {
  it.each(COMMANDS)(
    "%s: --project that disagrees with a file is an error naming both, sent nothing",
    async (_c, args) => {
      h.write("posthog/exports.yaml", FILE);
      await h.clearRequests();
      const result = await h.cli([...args, "--project", "12346"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "posthog/exports.yaml:1:10: error: this file is for project 12345 but --project 12346 was given",
      );
      expect(await h.requests()).toEqual([]);
    },
  );

  it.each(COMMANDS)("%s: POSTHOG_PROJECT_ID only fills in: the file's project governs", async (_c, args) => {
    h.write("posthog/exports.yaml", FILE);
    await h.clearRequests();
    const result = await h.cli(args, { POSTHOG_PROJECT_ID: "12346" });
    expect(result.stderr).not.toContain("12346");
    const projects = new Set(
      (await h.requests()).map((r) => /\/api\/projects\/(\d+)\//.exec(r.path)?.[1]).filter(Boolean),
    );
    expect([...projects]).toEqual(["12345"]);
  });

  it("--project fills in for a file without `project:`", async () => {
    h.write("posthog/exports.yaml", `batch_exports:\n  - name: ${S3}\n`);
    await h.clearRequests();
    const result = await h.cli(["runs", S3, "--project", "12345", "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).export.project).toBe(12345);
  });
});

describe("help and version", () => {
  const commands = [
    "validate",
    "plan",
    "apply",
    "pull",
    "status",
    "runs",
    "retry",
    "backfill",
    "logs",
    "events",
    "emulator",
  ];

  it.each(commands)(
    "%s --help names the environment variables it reads and gives an example",
    async (command) => {
      const result = await h.cli([command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Environment variables:");
      expect(result.stdout).toMatch(/\nExample:\n {2}\$ posthog-gitops /);
      if (command !== "validate" && command !== "emulator") {
        for (const name of ["POSTHOG_HOST", "POSTHOG_API_KEY", "POSTHOG_PROJECT_ID", "POSTHOG_RATE_LIMIT"]) {
          expect(result.stdout).toContain(name);
        }
      }
    },
  );

  it("--version is the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const result = await h.cli(["--version"]);
    expect(result.stdout).toBe(`${version}\n`);
  });
});
