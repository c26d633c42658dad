/**
 * The action with environments (SPEC §9): `environments` says which to plan or apply, `api-keys`
 * hands each environment's key to the CLI in the variable its entry names (masked first, like
 * `api-key`). A plan of every environment is one comment with a section each; an apply of one
 * environment applies that one only, from the plan it saved.
 */

import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "posthog-gitops-shared/clock";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";
import { act, KEY, ROOT } from "./harness.js";
import { GITHUB_TOKEN } from "./runner.js";

const h = useEmulator({ apiKey: KEY, rateLimit: "none", clock: systemClock });
const STAGING = "phx_action_stg_5Rw8Kt2Q";
const PRODUCTION = "phx_action_prd_9Lm3Vx6Z";
const KEYS = `POSTHOG_API_KEY_STAGING=${STAGING}\nPOSTHOG_API_KEY_PRODUCTION=${PRODUCTION}\n`;

async function withKeys(): Promise<void> {
  await h.reseed((state) => {
    state.api_keys.push(
      { key: STAGING, user: 1, scopes: ["*"] },
      { key: PRODUCTION, user: 1, scopes: ["*"] },
    );
  });
}

const run = (inputs: Record<string, string>) =>
  act({
    dir: h.dir,
    inputs: { host: h.url, paths: "examples/posthog", "api-keys": KEYS, ...inputs },
    env: { PRICING_PAYLOAD_PRODUCTION: "action-test-payload-Qz71" },
  });

describe("the action with environments", () => {
  it("masks every environment's key first, and plans every environment into one comment", async () => {
    await withKeys();
    const r = await run({ command: "plan", environments: "all" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.masks).toEqual([GITHUB_TOKEN, STAGING, PRODUCTION]);
    for (const key of [STAGING, PRODUCTION]) {
      expect([r.stderr, r.markdown, r.planJson, r.summary].join("\n")).not.toContain(key);
    }
    expect(r.markdown.split("\n")[0]).toBe("<!-- posthog-gitops plan: environments staging,production -->");
    expect(r.markdown).toContain("### posthog-gitops plan for staging (project 12346)");
    expect(r.markdown).toContain("### posthog-gitops plan for production (project 12345)");
    expect(r.outputs["has-changes"]).toBe("true");
    expect(r.outputs.destructive).toBe("false");
    const saved = JSON.parse(r.planJson) as { environments: Array<{ environment: string }> };
    expect(saved.environments.map((e) => e.environment)).toEqual(["staging", "production"]);
  });

  it("applies the environment it names, and only that one", async () => {
    await withKeys();
    const r = await run({ command: "apply", environments: "staging" });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.planJson).environment).toBe("staging");
    const state = await h.state();
    const kpis = state.dashboards.filter(
      (d: { name: string; deleted: boolean }) => d.name === "Weekly KPIs" && !d.deleted,
    );
    expect(kpis.map((d: { team_id: number }) => d.team_id)).toEqual([12346]);
    const again = await run({ command: "plan", environments: "staging" });
    expect(again.outputs["has-changes"]).toBe("false");
  });

  it("refuses a key line without a variable before anything runs, masking it all the same", async () => {
    const r = await run({ command: "plan", "api-keys": "phx_no_variable_here_42" });
    expect(r.code).toBe(1);
    expect(r.masks).toContain("phx_no_variable_here_42");
    const shown = r.stdout.split("\n").filter((line) => !line.startsWith("::add-mask::"));
    expect(shown.join("\n")).not.toContain("phx_no_variable_here_42");
    expect(r.commands.filter((c) => c.command === "error").map((c) => c.value)).toEqual([
      "input api-keys, line 1: write VARIABLE=key, one a line (the variable an environment's api_key_env names)",
    ]);
  });
});

describe("the action's promote command (SPEC §9 Promotion)", () => {
  it("writes staging's live edit into the workspace's shared files, with the pull request's body and the result as outputs", async () => {
    await withKeys();
    // A workspace of its own: promote writes into the files it is given.
    const workspace = join(h.dir, "checkout");
    cpSync(join(ROOT, "examples/posthog"), join(workspace, "posthog"), { recursive: true });
    const env = { PRICING_PAYLOAD_PRODUCTION: "action-test-payload-Qz71" };
    const applied = await act({
      dir: h.dir,
      workspace,
      inputs: { host: h.url, "api-keys": KEYS, command: "apply", environments: "all" },
      env,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const state = await h.state();
    const flag = state.feature_flags.find(
      (f: { key: string; team_id: number }) => f.key === "search-v2" && f.team_id === 12346,
    );
    const edit = await h.api("PATCH", `/api/projects/12346/feature_flags/${flag.id}/`, {
      name: "Search v2 for all",
    });
    expect(edit.status).toBe(200);
    const file = join(workspace, "posthog/shared/feature-flags.yaml");
    const before = readFileSync(file, "utf8");
    await h.clearRequests();
    const r = await act({
      dir: h.dir,
      workspace,
      inputs: { host: h.url, "api-keys": KEYS, command: "promote", "promote-from": "staging" },
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect([...new Set((await h.requests()).map((q) => q.method))]).toEqual(["GET"]);
    expect(readFileSync(file, "utf8")).toBe(
      before.replace(
        "    name: Search rewrite, behind checkout v1 while it settles\n",
        "    name: Search v2 for all\n",
      ),
    );
    expect(r.outputs["has-changes"]).toBe("true");
    expect(r.outputs.destructive).toBe("false");
    expect(r.markdown.split("\n")[0]).toBe("<!-- posthog-gitops promote: staging -> production -->");
    expect(r.markdown).toContain("+    name: Search v2 for all");
    expect(r.markdown).toContain(
      "### posthog-gitops plan for production (project 12345) from the edited files",
    );
    const result = JSON.parse(r.planJson);
    expect(result.promoted).toEqual([
      { owner: 'feature flag "search-v2"', field: "name", file: "posthog/shared/feature-flags.yaml" },
    ]);
    for (const key of [STAGING, PRODUCTION])
      expect([r.stderr, r.markdown, r.planJson].join("\n")).not.toContain(key);
    // Nothing left to promote: has-changes is false.
    const again = await act({
      dir: h.dir,
      workspace,
      inputs: { host: h.url, "api-keys": KEYS, command: "promote", "promote-from": "staging" },
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.outputs["has-changes"]).toBe("false");
  });
});
