/**
 * The action passes its `base` input to plan as `--base=REF` (one argument: a value never reads as an
 * option), and `changed-only` as `--changed-only`; apply then applies that saved plan, scope and all.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Cli } from "../../src/action/cli-runner.js";
import { type ActionInputs, readInputs } from "../../src/action/inputs.js";
import { runAction } from "../../src/action/run.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function planArgs(base: string, changedOnly = "false"): Promise<readonly string[]> {
  const outDir = mkdtempSync(join(tmpdir(), "posthog-gitops-action-"));
  dirs.push(outDir);
  const given: Record<string, string> = {
    command: "plan",
    paths: "posthog",
    prune: "false",
    base,
    "changed-only": changedOnly,
  };
  const inputs: ActionInputs = readInputs((name) => given[name] ?? "");
  const calls: (readonly string[])[] = [];
  const cli: Cli = {
    label: "fake",
    async run(args) {
      calls.push(args);
      const out = args[args.indexOf("--out") + 1]!;
      writeFileSync(out, JSON.stringify({ plan: { summary: { total: 0, destructive: false } } }));
      return { code: 0, stdout: "" };
    },
  };
  const report = { info() {}, error() {}, setOutput() {}, startGroup() {}, endGroup() {} };
  expect(await runAction({ inputs, cli, outDir, runUrl: "https://example.invalid/run", report })).toBe(0);
  return calls[0]!;
}

describe("the action's base input", () => {
  it("becomes --base=REF for plan, before the paths", async () => {
    const args = await planArgs("HEAD^1");
    expect(args).toContain("--base=HEAD^1");
    expect(args.indexOf("--base=HEAD^1")).toBeLessThan(args.indexOf("--"));
  });

  it("adds nothing when empty", async () => {
    expect((await planArgs("")).some((a) => a.startsWith("--base"))).toBe(false);
  });

  it("with changed-only, plan gets --changed-only too (before the paths); without, never", async () => {
    const args = await planArgs("HEAD^1", "true");
    expect(args.indexOf("--changed-only")).toBeGreaterThan(-1);
    expect(args.indexOf("--changed-only")).toBeLessThan(args.indexOf("--"));
    expect(await planArgs("HEAD^1")).not.toContain("--changed-only");
  });
});
