/**
 * Promotion (SPEC §9 "Promotion", issue 35), end to end: the real CLI against the emulator with two
 * projects (staging 12346, production 12345), each with its own key, and the example files
 * (examples/posthog: environments.yaml, shared/, overlays/) applied to both. An edit made in staging's
 * UI becomes one line of a shared file; a field staging's overlay sets stays there; `--adopt` brings a
 * staging-only dashboard with its insights and tiles, by name; `promote` sends only GETs; a group type
 * mismatch is warned; and no secret reaches a shared file or an output.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type Json, ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const EXAMPLES = join(ROOT, "examples/posthog");

/** Each environment's key in the variable its entry names; made of no ordinary word (leak scan). */
const KEYS = {
  POSTHOG_API_KEY: undefined,
  POSTHOG_API_KEY_STAGING: "phx_stg_Wd4Kp8Nx2Lq6Zt",
  POSTHOG_API_KEY_PRODUCTION: "phx_prd_Ry7Fm3Jc9Vb1Hs",
};
const SECRETS = {
  PRODUCTION_PROJECT_TOKEN: "phc_Pm4Xz8Qw2Ls6Kd",
  PRICING_PAYLOAD_PRODUCTION: '{"plan":"Gz7Rk2Wq9Tn4"}',
};
const ENV = { ...KEYS, ...SECRETS };

const read = (name: string) => readFileSync(join(h.dir, name), "utf8");
const STAGING = "/api/projects/12346";

beforeEach(async () => {
  await h.reseed((state) => {
    state.api_keys.push(
      { key: KEYS.POSTHOG_API_KEY_STAGING, user: 1, scopes: ["*"] },
      { key: KEYS.POSTHOG_API_KEY_PRODUCTION, user: 1, scopes: ["*"] },
    );
  });
  cpSync(EXAMPLES, join(h.dir, "posthog"), { recursive: true });
  const applied = await h.cli(["apply", "--all", "--auto-approve"], ENV);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
});

/** Staging's live flag with this key. */
async function stagingFlag(key: string): Promise<Json> {
  const state = await h.state();
  return state.feature_flags.find((f: Json) => f.key === key && f.team_id === 12346 && !f.deleted);
}

describe("promote staging", () => {
  it("a rollout changed in staging's UI is one line of the shared flag file; staging then plans empty, production exactly that change", async () => {
    const flag = await stagingFlag("new-checkout");
    const groups = structuredClone(flag.filters.groups);
    groups[0].rollout_percentage = 80;
    const edit = await h.api("PATCH", `${STAGING}/feature_flags/${flag.id}/`, {
      filters: { ...flag.filters, groups },
    });
    expect(edit.status, edit.text).toBe(200);
    const before = read("posthog/shared/feature-flags.yaml");
    await h.clearRequests();
    const shown = await h.cli(["promote", "staging", "--detailed-exitcode"], ENV);
    expect(shown.code, shown.stderr).toBe(2);
    expect(read("posthog/shared/feature-flags.yaml")).toBe(before);
    const methods = new Set((await h.requests()).map((r) => r.method));
    expect([...methods]).toEqual(["GET"]);
    const written = await h.cli(["promote", "staging", "--write"], ENV);
    expect(written.code, written.stderr).toBe(0);
    const after = read("posthog/shared/feature-flags.yaml");
    const changed = after.split("\n").filter((line, i) => line !== before.split("\n")[i]);
    expect(after.split("\n").length).toBe(before.split("\n").length);
    expect(changed).toEqual(["          rollout_percentage: 80"]);
    expect(after).toBe(before.replace(/rollout_percentage: 100\n/, "rollout_percentage: 80\n"));
    console.log(written.stdout);
    const staging = await h.cli(["plan", "--env", "staging", "--detailed-exitcode"], ENV);
    expect(staging.code, staging.stdout).toBe(0);
    const production = await h.cli(["plan", "--env", "production", "--format", "json"], ENV);
    const plan = JSON.parse(production.stdout).environments[0].plan;
    expect(
      plan.actions.map((a: Json) => [a.action, a.object.name, a.changes.map((c: Json) => c.path)]),
    ).toEqual([["update", "new-checkout", ["filters.groups"]]]);
    expect(existsSync(join(h.dir, "posthog"))).toBe(true);
  });
});
