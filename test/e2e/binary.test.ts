/**
 * The built binary (`bin/posthog-gitops.js` → dist/, so `npm run build` first; `npm test` does) against
 * the emulator over loopback, and the README's first command, `npm run demo` (scripts/demo.js).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "posthog-gitops-shared/clock";
import { beforeAll, describe, expect, it } from "vitest";
import { KEY, ROOT, runNode, spawnCli, useEmulator } from "../support/emulator.js";

// The spawned CLI reads the system clock, so the emulator does too: both agree on "now" at any date.
const h = useEmulator({ clock: systemClock });

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist/cli.js"))) throw new Error("dist/ is missing: run `npm run build` first");
});

const CONFIG = `project: 12345
dashboards:
  - name: From the binary
    description: made by bin/posthog-gitops.js
    sharing:
      enabled: true
`;

describe("bin/posthog-gitops.js", () => {
  it("validate, plan, apply, plan: exit codes 0, 2, 0, 0", async () => {
    h.write("posthog/d.yaml", CONFIG);
    const env = { POSTHOG_HOST: h.url, POSTHOG_API_KEY: KEY };
    const validate = await spawnCli(["validate"], {}, h.dir);
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await spawnCli(["plan", "--detailed-exitcode"], env, h.dir);
    expect(plan.stdout, plan.stderr).toContain('+ dashboard "From the binary"');
    expect(plan.code, plan.stderr).toBe(2);
    const apply = await spawnCli(["apply", "--auto-approve"], env, h.dir);
    expect(apply.stdout, apply.stderr).toContain("Apply complete: 2 succeeded, 0 failed, 0 skipped.");
    expect(apply.code, apply.stderr).toBe(0);
    const again = await spawnCli(["plan", "--detailed-exitcode"], env, h.dir);
    expect(again.stdout, again.stderr).toContain("No changes");
    expect(again.code, again.stderr).toBe(0);
    const made = (await h.state()).dashboards.filter((d: { name: string }) => d.name === "From the binary");
    expect(made).toHaveLength(1);
  });

  it("refuses without a key, and apply without a terminal needs --auto-approve; nothing is sent", async () => {
    h.write("posthog/d.yaml", CONFIG);
    const noKey = await spawnCli(["plan"], { POSTHOG_HOST: h.url }, h.dir);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/POSTHOG_API_KEY is not set/);
    const noApprove = await spawnCli(["apply"], { POSTHOG_HOST: h.url, POSTHOG_API_KEY: KEY }, h.dir);
    expect(noApprove.code).toBe(1);
    expect(noApprove.stderr).toMatch(/--auto-approve/);
    expect(await h.requests()).toEqual([]);
  });

  it("pull writes files that plan finds unchanged", async () => {
    const env = { POSTHOG_HOST: h.url, POSTHOG_API_KEY: KEY, POSTHOG_PROJECT_ID: "12345" };
    expect((await spawnCli(["pull", "--out", "adopted"], env, h.dir)).code).toBe(0);
    const plan = await spawnCli(["plan", "--detailed-exitcode", "adopted"], env, h.dir);
    expect(plan.stdout).toContain("No changes");
    expect(plan.code).toBe(0);
  });

  it("without dist/: one line that fits a checkout, and another for an installed copy", async () => {
    const bin = readFileSync(join(ROOT, "bin/posthog-gitops.js"), "utf8");
    const place = (folder: string) => {
      mkdirSync(join(h.dir, folder, "bin"), { recursive: true });
      writeFileSync(join(h.dir, folder, "bin/posthog-gitops.js"), bin);
      return join(h.dir, folder, "bin/posthog-gitops.js");
    };
    const checkout = await runNode([place("checkout"), "--version"], {}, h.dir, 10_000);
    expect(checkout.stderr).toBe(
      "posthog-gitops: dist/ is missing in this checkout; run `npm run build` first\n",
    );
    expect(checkout.code).toBe(1);
    const installed = await runNode([place("node_modules/posthog-gitops"), "--version"], {}, h.dir, 10_000);
    expect(installed.stderr).toBe(
      "posthog-gitops: this installed copy has no dist/ (it was packed unbuilt): install a tarball made by `npm pack` in a checkout, which builds first\n",
    );
    expect(installed.code).toBe(1);
  });
});

describe("npm run demo", () => {
  it("starts the emulator, plans and applies examples/ (two environments), and plans again with no changes", async () => {
    const demo = await runNode([join(ROOT, "scripts/demo.js")], {}, ROOT, 30_000);
    expect(demo.stderr).not.toMatch(/not idempotent|error|refused/i);
    expect(demo.stdout).toContain("Apply complete");
    // The last plan is clean: no change, and nothing to warn about either (issue 21).
    const last = demo.stdout.slice(demo.stdout.lastIndexOf("# again: nothing left to do"));
    expect(last).toMatch(
      /^# again: nothing left to do\n══ Environment staging · project 12346 · http:\/\/127\.0\.0\.1:\d+\n\nNo changes\. The live service matches the configuration\.\n\n══ Environment production · project 12345 · http:\/\/127\.0\.0\.1:\d+\n\nNo changes\. The live service matches the configuration\.\n\n2 environments: staging no changes; production no changes\.\n\nemulator: /,
    );
    // The emulator follows the newest service by default and refused none of the demo's requests.
    expect(demo.stdout).toMatch(/\nemulator: [1-9]\d* requests, 0 answered with an error \(4xx\/5xx\)\n$/);
    // stdout is a pipe here: no colour codes (issue 16 item 9), from the demo or the CLI.
    expect(demo.stdout).not.toContain("\x1b[");
    expect(demo.code).toBe(0);
  });
});
