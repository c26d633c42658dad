/**
 * What a flag update sends as `filters`, through the real CLI and emulator, under both ways PostHog
 * has treated a PATCH's `filters`: the newest service merges the sent top-level keys over the stored
 * ones (`flag_filters_patch: "merge"`); the service before PostHog #74761 ignored filters without
 * `groups` and stored filters with `groups` whole (`"replace"`). A file that declares some keys of a
 * flag's filters must change those and nothing else under both: the other keys (variants, payloads,
 * an encrypted payload's ciphertext) survive the apply, the next plan is empty, and a key someone
 * changed in the UI since the plan is refused by the service's version check, not overwritten.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOB_KEY, FLAG_IDS, SAMPLE_ENCRYPTED_PAYLOAD } from "posthog-gitops-emulator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { type Json, P, recordingProxy, recordRun, useEmulator } from "../support/emulator.js";
import { memoryIo } from "../support/io.js";

const h = useEmulator();
const FLAGS = `${P}/feature_flags`;
/** The code inside `pricing-config`'s encrypted payload: no output may show it. */
const LIVE_CODE = "EMU-7Q4-SECRET-0042";
let closeProxy: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeProxy?.();
  closeProxy = undefined;
});

function flagsFile(body: string): void {
  h.write("p/flags.yaml", `project: 12345\nfeature_flags:\n${body}`);
}

async function liveFlag(id: number): Promise<Json> {
  return (await h.api("GET", `${FLAGS}/${id}/`)).body;
}

/** The default seed's `new-checkout` conditions as a file declares them, its second rollout given. */
const CHECKOUT_GROUPS = (rollout: number) => `      groups:
        - properties:
            - {key: email, type: person, operator: icontains, value: "@acme.com"}
            - {type: flag, key: checkout-v1, operator: flag_evaluates_to, value: true}
            - {type: cohort, cohort: Beta testers, operator: in}
          rollout_percentage: 100
        - rollout_percentage: ${rollout}
`;

/** `apply` of the saved plan on a terminal that answers yes after `meanwhile` (an edit in the UI). */
async function applySavedAfter(meanwhile: () => Promise<void>, env: Record<string, string> = {}) {
  const mem = memoryIo(h.env(env), h.dir, h.clock);
  mem.io.confirm = async () => {
    await meanwhile();
    return "yes";
  };
  const args = ["apply", "--plan", "plan.json"];
  const code = await main(["node", "posthog-gitops", ...args], mem.io.env, mem.io);
  return recordRun(args, mem.io.env, { code, stdout: mem.stdout, stderr: mem.stderr });
}

for (const mode of ["merge", "replace"] as const) {
  describe(`flag filters sent whole (the service's PATCH ${mode}s filters)`, () => {
    beforeEach(async () => {
      await h.reseed<Json>((s) => {
        s.service.flag_filters_patch = mode;
      });
    });

    it("a rollout change declares only groups: variants and payloads stay, the next plan is empty", async () => {
      const before = await liveFlag(FLAG_IDS.newCheckout);
      flagsFile(`  - key: new-checkout\n    filters:\n${CHECKOUT_GROUPS(35)}`);
      const plan = await h.cli(["plan", "p"]);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain("filters.groups: group 2: rollout 20% → 35%");
      expect(plan.stdout).not.toContain("multivariate");
      expect(plan.stdout).not.toContain("payloads");
      expect(plan.stdout).toContain("Plan: 1 to update.");
      const proxy = await recordingProxy(() => h.url);
      closeProxy = proxy.close;
      const apply = await h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: proxy.url });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const patch = JSON.parse(proxy.recorded.find((r) => r.method === "PATCH")?.body ?? "null");
      // The stored keys go back as read (the dependency by its id, the cohort by id, no cohort_name).
      expect(patch.filters.multivariate).toEqual(before.filters.multivariate);
      expect(patch.filters.payloads).toEqual(before.filters.payloads);
      expect(patch.filters.groups[0].properties[1]).toEqual({
        key: String(FLAG_IDS.checkoutV1),
        type: "flag",
        operator: "flag_evaluates_to",
        value: true,
      });
      expect(JSON.stringify(patch.filters)).not.toContain("cohort_name");
      const after = await liveFlag(FLAG_IDS.newCheckout);
      expect(after.filters.groups[1].rollout_percentage).toBe(35);
      expect(after.filters.groups[0].properties).toEqual(before.filters.groups[0].properties);
      expect(after.filters.multivariate).toEqual(before.filters.multivariate);
      expect(after.filters.payloads).toEqual(before.filters.payloads);
      const again = await h.cli(["plan", "--detailed-exitcode", "p"]);
      expect(again.stdout).toBe("No changes. The live service matches the configuration.\n");
      expect(again.code).toBe(0);
    });

    it("a payload change declares only payloads: it lands, the conditions stay, the next plan is empty", async () => {
      const before = await liveFlag(FLAG_IDS.newCheckout);
      flagsFile("  - key: new-checkout\n    filters:\n      payloads: {test: {color: green}}\n");
      const plan = await h.cli(["plan", "p"]);
      expect(plan.stdout).toContain("filters.payloads");
      expect(plan.stdout).not.toContain("filters.groups");
      const apply = await h.cli(["apply", "--auto-approve", "p"]);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const after = await liveFlag(FLAG_IDS.newCheckout);
      expect(JSON.parse(after.filters.payloads.test)).toEqual({ color: "green" });
      expect(after.filters.groups).toEqual(before.filters.groups);
      expect(after.filters.multivariate).toEqual(before.filters.multivariate);
      expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    });

    it("an encrypted flag's rollout change keeps its ciphertext; no plain text in any output or the saved plan", async () => {
      const stored = async () =>
        (await h.state()).feature_flags.find((f: Json) => f.id === FLAG_IDS.pricingConfig).filters;
      const ciphertext = (await stored()).payloads.true;
      flagsFile("  - key: pricing-config\n    filters:\n      groups: [{rollout_percentage: 40}]\n");
      // Through a recording proxy from the start: a saved plan is bound to the host it was made against.
      const proxy = await recordingProxy(() => h.url);
      closeProxy = proxy.close;
      const env = { POSTHOG_HOST: proxy.url };
      const plan = await h.cli(["plan", "--out", "plan.json", "p"], env);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain("filters.groups: group 1: rollout 100% → 40%");
      const json = await h.cli(["plan", "--format", "json", "p"], env);
      const markdown = await h.cli(["plan", "--format", "markdown", "p"], env);
      const saved = readFileSync(join(h.dir, "plan.json"), "utf8");
      expect(saved).not.toContain(LIVE_CODE);
      const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"], env);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      for (const run of [plan, json, markdown, apply]) {
        expect(run.stdout).not.toContain(LIVE_CODE);
        expect(run.stderr).not.toContain(LIVE_CODE);
      }
      const patch = proxy.recorded.find((r) => r.method === "PATCH")?.body ?? "";
      expect(patch).not.toContain(LIVE_CODE);
      // The payloads are left out, so the service keeps what it stores, the ciphertext unchanged.
      expect(JSON.parse(patch).filters).not.toHaveProperty("payloads");
      expect((await stored()).payloads.true).toBe(ciphertext);
      const after = await liveFlag(FLAG_IDS.pricingConfig);
      expect(after.filters.payloads).toEqual({ true: SAMPLE_ENCRYPTED_PAYLOAD });
      expect(after.filters.groups[0].rollout_percentage).toBe(40);
      expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    });

    it("a UI edit of the variants between a saved plan of groups and its apply is refused (409), not overwritten", async () => {
      flagsFile(`  - key: new-checkout\n    filters:\n${CHECKOUT_GROUPS(45)}`);
      const plan = await h.cli(["plan", "--out", "plan.json", "p"]);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain("group 2: rollout 20% → 45%");
      const url = `${FLAGS}/${FLAG_IDS.newCheckout}/`;
      // Bob changes the variants in the UI after the saved plan was checked against live state; the UI
      // sends the whole filters, which both ways of treating them store.
      const apply = await applySavedAfter(async () => {
        const live = await liveFlag(FLAG_IDS.newCheckout);
        const variants = [
          { key: "control", name: "Control", rollout_percentage: 30 },
          { key: "test", name: "Test", rollout_percentage: 70 },
        ];
        const edit = { filters: { ...live.filters, multivariate: { variants } } };
        expect((await h.api("PATCH", url, edit, { key: BOB_KEY })).status).toBe(200);
      });
      expect(apply.code).toBe(1);
      expect(apply.stdout).toContain(
        `✗ ~ update · feature flag "new-checkout" (id ${FLAG_IDS.newCheckout}) in project 12345 — PATCH feature_flags/${FLAG_IDS.newCheckout}: 409: The feature flag was updated by bob@example.com since you started editing it.`,
      );
      const after = await liveFlag(FLAG_IDS.newCheckout);
      expect(after.filters.multivariate.variants.map((v: Json) => v.rollout_percentage)).toEqual([30, 70]);
      expect(after.filters.groups[1].rollout_percentage).toBe(20);
    });
  });
}
