/**
 * The guards a flag needs (SPEC §3 "Feature flags"), through the real CLI and emulator: a flag
 * evaluated in the last 30 days (the default seed's `checkout-v1`, called a day ago on the emulator's
 * clock) is live in production, so turning it off, pruning, archiving or re-keying it is refused
 * without --force (also under --auto-approve) with the reason; the service's own refusals are quoted;
 * dependents go down before what they depend on; and a live encrypted payload's plain text (which
 * the personal key reads) appears in no output, no saved plan and no request's `original_flag`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOB_KEY, FLAG_IDS, SAMPLE_ENCRYPTED_PAYLOAD } from "posthog-gitops-emulator";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { type Json, P, type RunResult, recordingProxy, recordRun, useEmulator } from "../support/emulator.js";
import { memoryIo } from "../support/io.js";
import { DISGUISED_PAYLOAD } from "../support/leak-scan.js";

const h = useEmulator();
const FLAGS = `${P}/feature_flags`;
const LIVE_CODE = "EMU-7Q4-SECRET-0042";
let closeProxy: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeProxy?.();
  closeProxy = undefined;
});

function flagsFile(body: string, extra = ""): void {
  h.write("p/flags.yaml", `project: 12345\n${extra}feature_flags:\n${body}`);
}

async function liveFlag(id: number): Promise<Json> {
  return (await h.api("GET", `${FLAGS}/${id}/`)).body;
}

const writes = async () => (await h.requests()).filter((r) => r.method !== "GET");

function expectNoLiveCode(...runs: RunResult[]): void {
  for (const run of runs) {
    expect(run.stdout).not.toContain(LIVE_CODE);
    expect(run.stderr).not.toContain(LIVE_CODE);
  }
}

describe("a flag live in production", () => {
  it("turned off: shown with the reason, refused without --force even with --auto-approve", async () => {
    flagsFile("  - key: checkout-v1\n    active: false\n");
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain("active: turns the flag off for everyone");
    expect(plan.stdout).toContain(
      "! needs --force: it was evaluated a day ago (live in production): turning it off affects its users",
    );
    expect(plan.stderr).toContain(
      'error: refusing a plan with a change that needs --force: feature flag "checkout-v1" in project 12345: it was evaluated a day ago (live in production): turning it off affects its users; check the plan and rerun with --force if it is intended',
    );
    const json = JSON.parse((await h.cli(["plan", "--format", "json", "--force", "p"])).stdout);
    expect(json.actions[0]).toMatchObject({ action: "update", destructive: true });
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("refusing a plan with a change that needs --force");
    expect(await writes()).toEqual([]);
  });

  it("with --force, the service's refusal is quoted and the flag left as it was (an active flag depends on it)", async () => {
    flagsFile("  - key: checkout-v1\n    active: false\n");
    const apply = await h.cli(["apply", "--auto-approve", "--force", "p"]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(
      /✗ ~ update · feature flag "checkout-v1" \(id 1\) in project 12345 — PATCH feature_flags\/1: 400: .*new-checkout/,
    );
    expect((await liveFlag(FLAG_IDS.checkoutV1)).active).toBe(true);
  });

  it("turned off with its dependent: the dependent goes first, both land with --force", async () => {
    flagsFile("  - key: checkout-v1\n    active: false\n  - key: new-checkout\n    active: false\n");
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const apply = await h.cli(["apply", "--auto-approve", "--force", "p"], { POSTHOG_HOST: proxy.url });
    expect(apply.code).toBe(0);
    expect(proxy.recorded.filter((r) => r.method === "PATCH").map((r) => r.path)).toEqual([
      `${FLAGS}/${FLAG_IDS.newCheckout}/`,
      `${FLAGS}/${FLAG_IDS.checkoutV1}/`,
    ]);
    expect((await liveFlag(FLAG_IDS.checkoutV1)).active).toBe(false);
  });

  it("pruned: refused without --force with the reason; ignore globs on keys keep the others", async () => {
    flagsFile("  []\n", "ignore:\n  feature_flags: [new-*, pricing-*, holiday-*]\n");
    const plan = await h.cli(["plan", "--prune", "--format", "json", "--force", "p"]);
    const actions = JSON.parse(plan.stdout).actions;
    expect(actions.map((a: Json) => [a.action, a.object.name])).toEqual([["soft_delete", "checkout-v1"]]);
    const refused = await h.cli(["apply", "--auto-approve", "--prune", "p"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'feature flag "checkout-v1" in project 12345: it was evaluated a day ago (live in production): soft-deleting it affects its users',
    );
    expect((await liveFlag(FLAG_IDS.checkoutV1)).deleted).toBe(false);
  });

  it("re-keyed through its pin: refused without --force, naming the key code checks", async () => {
    flagsFile("  - key: checkout-legacy\n    id: 1\n");
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain('renaming its key, code that checks "checkout-v1" no longer finds it');
    const forced = await h.cli(["apply", "--auto-approve", "--force", "p"]);
    expect(forced.code).toBe(0);
    expect((await liveFlag(FLAG_IDS.checkoutV1)).key).toBe("checkout-legacy");
  });

  it("is no longer live after 30 days, and a flag never evaluated has no guard", async () => {
    await h.api("PATCH", `${FLAGS}/${FLAG_IDS.holidayPromo}/`, { active: true });
    flagsFile("  - key: holiday-promo\n    active: false\n    archived: true\n");
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toContain("needs --force");
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    expect(await liveFlag(FLAG_IDS.holidayPromo)).toMatchObject({ active: false, archived: true });
  });
});

describe("encrypted payloads", () => {
  const PRICING = `  - key: pricing-config
    is_remote_configuration: true
    has_encrypted_payloads: true
    filters:
      groups: [{rollout_percentage: 100}]
      payloads:
        "true": \${PRICING_PAYLOAD}
`;

  it("compares in memory: the live value declared again is no change", async () => {
    flagsFile(PRICING);
    const plan = await h.cli(["plan", "--detailed-exitcode", "p"], {
      PRICING_PAYLOAD: SAMPLE_ENCRYPTED_PAYLOAD,
    });
    expect(plan.stdout).toBe("No changes. The live service matches the configuration.\n");
    expect(plan.code).toBe(0);
  });

  it("a new value: planned without either value, saved and applied without them, then no change", async () => {
    flagsFile(PRICING);
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const env = { PRICING_PAYLOAD: '{"discount_code": "ROTATED-5531"}', POSTHOG_HOST: proxy.url };
    const plan = await h.cli(["plan", "--out", "plan.json", "p"], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("filters.payloads.true: changes the encrypted payload for true");
    const saved = readFileSync(join(h.dir, "plan.json"), "utf8");
    expect(saved).not.toContain(LIVE_CODE);
    expect(saved).not.toContain("ROTATED-5531");
    expect(saved).toContain("PRICING_PAYLOAD");
    const markdown = await h.cli(["plan", "--format", "markdown", "p"], env);
    const json = await h.cli(["plan", "--format", "json", "p"], env);
    expectNoLiveCode(plan, markdown, json);
    expect(json.stdout).not.toContain("ROTATED-5531");

    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"], env);
    expect(apply.stderr).not.toContain("error");
    expect(apply.code).toBe(0);
    expectNoLiveCode(apply);
    const patch = JSON.parse(proxy.recorded.find((r) => r.method === "PATCH")?.body ?? "null");
    expect(patch.filters.payloads).toEqual({ true: '{"discount_code": "ROTATED-5531"}' });
    expect(JSON.stringify(patch.original_flag ?? {})).not.toContain("payloads");
    expect(JSON.stringify(patch)).not.toContain(LIVE_CODE);
    const after = await h.cli(["plan", "--detailed-exitcode", "p"], env);
    expect(after.code).toBe(0);
  });

  it("an edit in the UI between plan and apply is refused, though the plan keeps no payload to compare", async () => {
    flagsFile(PRICING);
    const mem = memoryIo(h.env({ PRICING_PAYLOAD: '{"discount_code": "ROTATED-6620"}' }), h.dir, h.clock);
    mem.io.confirm = async () => {
      const edit = { filters: { groups: [{ rollout_percentage: 40 }] } };
      expect(
        (await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingConfig}/`, edit, { key: BOB_KEY })).status,
      ).toBe(200);
      return "yes";
    };
    const code = await main(["node", "posthog-gitops", "apply", "p"], mem.io.env, mem.io);
    const run = recordRun(["apply", "p"], mem.io.env, { code, stdout: mem.stdout, stderr: mem.stderr });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "409: The feature flag was updated by bob@example.com since you started editing it.",
    );
    expectNoLiveCode(run);
    const flag = await liveFlag(FLAG_IDS.pricingConfig);
    expect(flag.filters.groups[0].rollout_percentage).toBe(40);
    expect(flag.filters.payloads.true).toBe(SAMPLE_ENCRYPTED_PAYLOAD);
  });

  it("a variable that is not JSON is a plain text: sent as a JSON string, then no change", async () => {
    flagsFile(PRICING);
    const env = { PRICING_PAYLOAD: "PLAIN-TOKEN-8841" };
    expect((await h.cli(["apply", "--auto-approve", "p"], env)).code).toBe(0);
    expect((await liveFlag(FLAG_IDS.pricingConfig)).filters.payloads.true).toBe('"PLAIN-TOKEN-8841"');
    expect((await h.cli(["plan", "--detailed-exitcode", "p"], env)).code).toBe(0);
  });

  it("is scrubbed from every output once read, wherever else it shows up", async () => {
    // Someone pasted the live payload's code into another flag's description.
    await h.api(
      "PATCH",
      `${FLAGS}/${FLAG_IDS.holidayPromo}/`,
      { name: `Promo ${LIVE_CODE}` },
      { key: BOB_KEY },
    );
    flagsFile("  - key: holiday-promo\n    name: Holiday promotion\n");
    const plan = await h.cli(["plan", "p"]);
    expect(plan.stdout).toContain('name: "Promo (encrypted payload true of feature flag pricing-config)"');
    const verbose = await h.cli(["plan", "--verbose", "--format", "json", "p"]);
    expectNoLiveCode(plan, verbose);
    const pull = await h.cli(["pull", "--kind", "feature_flags", "--out", "pulled"], {
      POSTHOG_PROJECT_ID: "12345",
    });
    expect(pull.code).toBe(0);
    const pulled = readFileSync(join(h.dir, "pulled/feature-flags.yaml"), "utf8");
    expect(pulled).not.toContain(LIVE_CODE);
    expect(pulled).toContain("${PRICING_CONFIG_PAYLOAD_TRUE}");
  });
});

describe("encrypted live payloads whatever the file declares", () => {
  /** Every form the disguised payload's content could take in an output (its scalars included). */
  const FORMS = [
    DISGUISED_PAYLOAD,
    JSON.stringify(JSON.parse(DISGUISED_PAYLOAD)),
    JSON.stringify(JSON.parse(DISGUISED_PAYLOAD), null, 2),
    "73519284",
    "zq7pin_vault",
    '"tier":"gold"',
    '"tier": "gold"',
    "tier: gold",
    "4096",
  ];

  /** pricing-config declared unencrypted, with a plain payload of its own. */
  const DECRYPTED = `  - key: pricing-config
    is_remote_configuration: true
    has_encrypted_payloads: false
    filters:
      groups: [{rollout_percentage: 100}]
      payloads:
        "true": {plain: 1}
`;

  function expectOpaque(label: string, text: string): void {
    for (const form of FORMS) expect(text, `${label} holds ${form}`).not.toContain(form);
  }

  /** pricing-config's live payload made the disguised one (the service encrypts it). */
  async function disguise(): Promise<void> {
    const patch = {
      filters: { groups: [{ rollout_percentage: 100 }], payloads: { true: DISGUISED_PAYLOAD } },
    };
    expect((await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingConfig}/`, patch)).status).toBe(200);
  }

  it("a file saying it is not encrypted: the change reads as the encrypted payload's, in no format, saved plan or request its value", async () => {
    await disguise();
    flagsFile(DECRYPTED);
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const plan = await h.cli(["plan", "--out", "plan.json", "p"], { POSTHOG_HOST: proxy.url });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("filters.payloads.true: changes the encrypted payload for true");
    expect(plan.stdout).toContain("has_encrypted_payloads: turns payload encryption off");
    const runs = {
      text: plan,
      markdown: await h.cli(["plan", "--format", "markdown", "p"]),
      json: await h.cli(["plan", "--format", "json", "--verbose", "p"]),
      github: await h.cli(["plan", "p"], { GITHUB_ACTIONS: "true" }),
    };
    for (const [label, run] of Object.entries(runs)) {
      expect(run.code, `${label}: ${run.stderr}`).toBe(0);
      expectOpaque(`${label} stdout`, run.stdout);
      expectOpaque(`${label} stderr`, run.stderr);
    }
    const action = JSON.parse(runs.json.stdout).actions[0];
    // Turning encryption off is a change of its own, and destructive-looking.
    expect(action.destructive).toBe(true);
    expect(action.changes).toContainEqual(
      expect.objectContaining({ path: "has_encrypted_payloads", before: true, after: false }),
    );
    expectOpaque("saved plan", readFileSync(join(h.dir, "plan.json"), "utf8"));
    // Refreshed from the live flag, the file learns nothing of the payload either.
    const refresh = await h.cli(["pull", "--refresh", "p"], { POSTHOG_HOST: proxy.url });
    expect(refresh.code, refresh.stderr).toBe(0);
    expectOpaque("refresh", refresh.stdout + refresh.stderr);
    expectOpaque("refreshed file", readFileSync(join(h.dir, "p/flags.yaml"), "utf8"));
    flagsFile(DECRYPTED);

    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"], {
      POSTHOG_HOST: proxy.url,
    });
    expect(apply.code, apply.stderr).toBe(0);
    expectOpaque("apply", apply.stdout + apply.stderr);
    const patch = proxy.recorded.find((r) => r.method === "PATCH");
    expectOpaque("the PATCH", patch?.body ?? "");
    expect(JSON.parse(patch?.body ?? "{}")).toMatchObject({
      has_encrypted_payloads: false,
      filters: { payloads: { true: '{"plain":1}' } },
    });
    const live = await liveFlag(FLAG_IDS.pricingConfig);
    expect(live.has_encrypted_payloads).toBe(false);
    expect(Object.keys(live.filters.payloads)).toEqual(["true"]);
    expect(JSON.parse(live.filters.payloads.true)).toEqual({ plain: 1 });
  });

  it("turned on again with the same value: every payload is written, for the service to encrypt", async () => {
    flagsFile(`  - key: pricing-config
    has_encrypted_payloads: false
    filters:
      payloads:
        "true": {plain: 1}
`);
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    flagsFile(`  - key: pricing-config
    has_encrypted_payloads: true
    filters:
      payloads:
        "true": \${PRICING_PAYLOAD}
`);
    const env = { PRICING_PAYLOAD: '{"plain": 1}' };
    const plan = await h.cli(["plan", "p"], env);
    expect(plan.stdout).toContain("has_encrypted_payloads: turns payload encryption on");
    expect(plan.stdout).toContain("filters.payloads.true: changes the encrypted payload for true");
    expect((await h.cli(["apply", "--auto-approve", "p"], env)).code).toBe(0);
    const stored = (await h.state()).feature_flags.find((f: Json) => f.id === FLAG_IDS.pricingConfig);
    expect(stored.has_encrypted_payloads).toBe(true);
    expect(stored.filters.payloads.true).not.toContain("plain");
    expect((await h.cli(["plan", "--detailed-exitcode", "p"], env)).code).toBe(0);
  });

  it("a file naming no payloads: turning encryption off says the payload goes, and shows none of it", async () => {
    await disguise();
    flagsFile("  - key: pricing-config\n    has_encrypted_payloads: false\n");
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("has_encrypted_payloads: turns payload encryption off");
    expectOpaque("plan", plan.stdout + plan.stderr);
    const json = await h.cli(["plan", "--format", "json", "p"]);
    expectOpaque("json", json.stdout);
    expect(JSON.parse(json.stdout).actions[0].destructive).toBe(true);
  });

  it("a payload written in plain text for a flag whose live payloads are encrypted is a plan error, not a comparison", async () => {
    await disguise();
    // The live value itself, declared: a plan that compared would say "no change" and tell it.
    flagsFile(`  - key: pricing-config
    filters:
      payloads:
        "true": ${JSON.stringify(JSON.parse(DISGUISED_PAYLOAD))}
`);
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'payload "true" of feature flag "pricing-config" is written in plain text, but its live payloads are encrypted',
    );
    expect(plan.stdout).not.toContain("No changes");
    const other = { ...JSON.parse(DISGUISED_PAYLOAD), zq7pin_vault: 1 };
    flagsFile(`  - key: pricing-config
    filters:
      payloads:
        "true": ${JSON.stringify(other)}
`);
    const differs = await h.cli(["plan", "p"]);
    // The same answer whatever the value: nothing to learn from it.
    expect(differs.code).toBe(1);
    expect(differs.stderr.replaceAll("1", "")).toBe(plan.stderr.replaceAll("1", ""));
    // The file's own text is the user's; the error shows none of the live value.
    expectOpaque("error", plan.stdout);
  });

  it("every scalar of a live encrypted payload is hidden wherever else it shows up", async () => {
    await disguise();
    // Someone pasted the payload's pieces into another flag's description.
    await h.api(
      "PATCH",
      `${FLAGS}/${FLAG_IDS.holidayPromo}/`,
      { name: "Promo 73519284 zq7pin_vault" },
      { key: BOB_KEY },
    );
    flagsFile("  - key: holiday-promo\n    name: Holiday promotion\n");
    const plan = await h.cli(["plan", "--out", "plan.json", "p"]);
    expect(plan.code).toBe(0);
    expectOpaque("plan", plan.stdout);
    expect(plan.stdout).toContain("(encrypted payload true of feature flag pricing-config)");
    const saved = readFileSync(join(h.dir, "plan.json"), "utf8");
    expect(saved).not.toContain("73519284");
    expect(saved).not.toContain("zq7pin_vault");
  });
});
