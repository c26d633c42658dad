/**
 * Feature flags end to end (SPEC §3 "Feature flags"): the real CLI against the real emulator over
 * loopback. One flag's life (create, no-op plan, rollout / variants / payloads in a reviewer's words,
 * a UI edit between plan and apply refused by the service's version check and naming the editor, a
 * change an approval policy holds, archive, soft delete, restore and key rename through the id pin);
 * dependencies by key across two projects with different ids, created in order; pull → plan empty.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ACME_ID, BOB_KEY, FLAG_IDS } from "posthog-gitops-emulator";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import {
  type Json,
  P,
  type PartialState,
  type RunResult,
  recordingProxy,
  recordRun,
  useEmulator,
} from "../support/emulator.js";
import { memoryIo } from "../support/io.js";

const h = useEmulator();
const FLAGS = `${P}/feature_flags`;
let closeProxy: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeProxy?.();
  closeProxy = undefined;
});

function flagsFile(body: string, project = 12345, name = "p/flags.yaml"): void {
  h.write(name, `project: ${project}\nfeature_flags:\n${body}`);
}

async function liveFlag(id: number, project = 12345): Promise<Json> {
  return (await h.api("GET", `/api/projects/${project}/feature_flags/${id}/`)).body;
}

async function idOf(key: string, project = 12345): Promise<number> {
  const found = (await h.api("GET", `/api/projects/${project}/feature_flags/?key=${key}`)).body.results;
  expect(found).toHaveLength(1);
  return found[0].id;
}

/** `apply` on a terminal that answers yes after running `meanwhile` (someone editing in the UI). */
async function applyAfter(
  meanwhile: () => Promise<void>,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const mem = memoryIo(h.env(env), h.dir, h.clock);
  mem.io.confirm = async () => {
    await meanwhile();
    return "yes";
  };
  const code = await main(["node", "posthog-gitops", "apply", "p"], mem.io.env, mem.io);
  return recordRun(["apply", "p"], mem.io.env, { code, stdout: mem.stdout, stderr: mem.stderr });
}

const SEARCH = (
  rollout: number,
  variants = "",
  payloads = '      payloads:\n        "true": {limit: 10}\n',
) =>
  `  - key: search-v2
    name: New search
    filters:
      groups:
        - properties: [{key: email, type: person, operator: icontains, value: "@acme.com"}]
          rollout_percentage: ${rollout}
${variants}${payloads}`;

const VARIANTS = (control: number, test: number) =>
  `      multivariate:\n        variants:\n          - {key: control, rollout_percentage: ${control}}\n          - {key: test, rollout_percentage: ${test}}\n`;

describe("a flag's life", () => {
  it("create, change in a reviewer's words, a refused UI edit, a held change, archive, delete, restore, re-key", async () => {
    // Create; the next plan is empty (the service's rewrites are no diff).
    flagsFile(SEARCH(20));
    const created = await h.cli(["apply", "--auto-approve", "p"]);
    expect(created.code).toBe(0);
    const id = await idOf("search-v2");
    const flag = await liveFlag(id);
    expect(flag.filters.groups[0].aggregation_group_type_index).toBeNull();
    expect(flag.filters.payloads).toEqual({ true: '{"limit":10}' });
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    // Rollout, variants and payloads, said the way a reviewer reads them.
    flagsFile(SEARCH(60, VARIANTS(50, 50), "      payloads:\n        test: {limit: 20}\n"));
    const widen = await h.cli(["plan", "p"]);
    expect(widen.stdout).toContain("filters.groups: group 1: rollout 20% → 60%");
    expect(widen.stdout).toContain("filters.multivariate: serves variants control 50%, test 50%");
    expect(widen.stdout).toContain("adds the payload for test");
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    expect((await liveFlag(id)).filters.payloads).toEqual({ test: '{"limit":20}' });
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    // Someone edits the rollout in the UI between plan and apply: the service refuses ours, naming them.
    flagsFile(SEARCH(80, VARIANTS(70, 30), "      payloads:\n        test: {limit: 20}\n"));
    const shifted = await h.cli(["plan", "p"]);
    expect(shifted.stdout).toContain("variant test: 50% → 30%");
    expect(shifted.stdout).toContain("group 1: rollout 60% → 80%");
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const version = (await liveFlag(id)).version;
    const conflict = await applyAfter(async () => {
      const edit = { filters: { groups: [{ rollout_percentage: 65 }] } };
      expect((await h.api("PATCH", `${FLAGS}/${id}/`, edit, { key: BOB_KEY })).status).toBe(200);
    });
    expect(conflict.code).toBe(1);
    expect(conflict.stdout).toContain(
      `✗ ~ update · feature flag "search-v2" (id ${id}) in project 12345 — PATCH feature_flags/${id}: 409: The feature flag was updated by bob@example.com since you started editing it.`,
    );
    expect((await liveFlag(id)).filters.groups[0].rollout_percentage).toBe(65);
    // What our PATCH carried: the version read at plan time and the stored values it changes.
    const stale = await applyWith(proxy.url, async () => {});
    const patch = JSON.parse(proxy.recorded.filter((r) => r.method === "PATCH").at(-1)?.body ?? "null");
    expect(stale.code).toBe(0);
    expect(patch.version).toBe(version + 1);
    expect(Object.keys(patch).sort()).toEqual(["filters", "original_flag", "version"]);
    // The filters go whole: the changed keys over the stored filters read at plan time.
    expect(Object.keys(patch.filters).sort()).toEqual([
      "aggregation_group_type_index",
      "groups",
      "multivariate",
      "payloads",
    ]);
    expect(patch.filters.groups[0].rollout_percentage).toBe(80);
    expect(patch.filters.multivariate.variants.map((v: Json) => v.rollout_percentage)).toEqual([70, 30]);
    expect(patch.filters.payloads).toEqual({ test: '{"limit":20}' });
    // The stored filters whole, the plain payload included: the service compares the field whole.
    expect(Object.keys(patch.original_flag)).toEqual(["filters"]);
    expect(patch.original_flag.filters.groups[0].rollout_percentage).toBe(65);
    expect(patch.original_flag.filters.payloads).toEqual({ test: '{"limit":20}' });

    // An approval policy holds the next change: pending, with the change request's id, exit 1.
    await h.reseed<PartialState>((s) => {
      s.approval_policies?.push({
        organization: ACME_ID,
        action_key: "feature_flag.update",
        approver_config: { quorum: 1, users: [2] },
      });
    });
    flagsFile(SEARCH(100, VARIANTS(70, 30), "      payloads:\n        test: {limit: 20}\n"));
    const held = await h.cli(["apply", "--auto-approve", "p"]);
    expect(held.code).toBe(1);
    const pending = held.stdout.match(
      /⧗ ~ update · feature flag "search-v2" \(id \d+\) in project 12345 — pending approval: change request ([0-9a-f-]{36})/,
    );
    expect(pending?.[1]).toBeDefined();
    expect(held.stdout).toContain(
      "Apply incomplete: 0 succeeded, 0 failed, 1 pending approval (not live until approved), 0 skipped.",
    );
    const requests = (await h.api("GET", `${P}/change_requests/?state=pending`)).body.results;
    expect(requests.map((r: Json) => r.id)).toEqual([pending?.[1]]);
    // Again, as JSON: the same request is still pending (the service opens no second one).
    const again = await h.cli(["apply", "--auto-approve", "--format", "json", "p"]);
    expect(again.code).toBe(1);
    const result = JSON.parse(again.stdout);
    expect(result.ok).toBe(false);
    expect(result.results.map((r: Json) => [r.outcome, r.change_request])).toEqual([
      ["pending", pending?.[1]],
    ]);
    expect((await liveFlag(id)).filters.groups[0].rollout_percentage).toBe(80);
    await h.reseed<PartialState>((s) => {
      s.approval_policies = [];
      s.change_requests = [];
    });

    // Archive: turned off first (the service archives only disabled flags), in words.
    flagsFile("  - key: search-v2\n    active: false\n    archived: true\n");
    const archive = await h.cli(["plan", "p"]);
    expect(archive.stdout).toContain("active: turns the flag off for everyone");
    expect(archive.stdout).toContain("Plan: 1 to update, 1 to archive.");
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    expect(await liveFlag(id)).toMatchObject({ active: false, archived: true });
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    // Soft delete of the archived flag (which the list hides): a PATCH, the flag still readable by id.
    flagsFile("  - key: search-v2\n    deleted: true\n");
    const remove = await h.cli(["apply", "--auto-approve", "p"]);
    expect(remove.stdout).toContain(`✓ - soft delete · feature flag "search-v2" (id ${id}) in project 12345`);
    expect((await liveFlag(id)).deleted).toBe(true);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    // Restore through the pin, then unarchive and turn on, in that order.
    flagsFile(`  - key: search-v2\n    id: ${id}\n    active: true\n    archived: false\n`);
    const restore = await h.cli(["apply", "--auto-approve", "p"]);
    expect(restore.code).toBe(0);
    expect(restore.stdout.match(/^✓ .*$/gm)).toEqual([
      `✓ ↺ restore · feature flag "search-v2" (id ${id}) in project 12345`,
      `✓ ⊞ unarchive · feature flag "search-v2" (id ${id}) in project 12345`,
      `✓ ~ update · feature flag "search-v2" (id ${id}) in project 12345`,
    ]);
    expect(await liveFlag(id)).toMatchObject({ deleted: false, archived: false, active: true });

    // Key rename through the pin: an update of `key`, same id, and then nothing to do.
    flagsFile(`  - key: search-v3\n    id: ${id}\n    active: true\n`);
    const rekey = await h.cli(["plan", "p"]);
    expect(rekey.stdout).toContain(
      'key: renames the key "search-v2" → "search-v3": code that checks "search-v2" no longer finds the flag',
    );
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    expect((await liveFlag(id)).key).toBe("search-v3");
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

async function applyWith(host: string, meanwhile: () => Promise<void>): Promise<RunResult> {
  await meanwhile();
  return h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: host });
}

describe("what original_flag carries: the values the service's version check compares", () => {
  const RECOMMENDER = (rollout: number, name = "Recommendations", tags = "[shop]") =>
    `  - key: recommender
    name: ${name}
    tags: ${tags}
    filters:
      groups: [{rollout_percentage: ${rollout}}]
      payloads:
        "true": {model: v2}
`;

  it("a UI edit of another field since the plan refuses nothing: the stored filters go whole, payloads included", async () => {
    flagsFile(RECOMMENDER(10));
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    const id = await idOf("recommender");
    flagsFile(RECOMMENDER(40));
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    // Bob edits the description between our plan and our apply: the version moves on.
    const applied = await applyAfter(
      async () => {
        const edit = { name: "Recommendations (Bob)" };
        expect((await h.api("PATCH", `${FLAGS}/${id}/`, edit, { key: BOB_KEY })).status).toBe(200);
      },
      { POSTHOG_HOST: proxy.url },
    );
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const patch = JSON.parse(proxy.recorded.filter((r) => r.method === "PATCH").at(-1)?.body ?? "null");
    expect(patch.original_flag).toEqual({
      filters: {
        groups: [{ properties: [], rollout_percentage: 10, aggregation_group_type_index: null }],
        payloads: { true: '{"model":"v2"}' },
        aggregation_group_type_index: null,
      },
    });
    expect(await liveFlag(id)).toMatchObject({ name: "Recommendations (Bob)" });
    expect((await liveFlag(id)).filters.groups[0].rollout_percentage).toBe(40);
  });

  it("never names tags or evaluation contexts, which the check does not compare", async () => {
    flagsFile(RECOMMENDER(10));
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    const id = await idOf("recommender");
    flagsFile(RECOMMENDER(10, "Recommendations, v2", "[shop, ml]"));
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const applied = await applyAfter(
      async () => {
        const edit = { ensure_experience_continuity: true };
        expect((await h.api("PATCH", `${FLAGS}/${id}/`, edit, { key: BOB_KEY })).status).toBe(200);
      },
      { POSTHOG_HOST: proxy.url },
    );
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const patch = JSON.parse(proxy.recorded.filter((r) => r.method === "PATCH").at(-1)?.body ?? "null");
    expect(patch).toMatchObject({ name: "Recommendations, v2", tags: ["ml", "shop"] });
    expect(patch.original_flag).toEqual({ name: "Recommendations" });
    expect(await liveFlag(id)).toMatchObject({
      name: "Recommendations, v2",
      ensure_experience_continuity: true,
    });
  });
});

describe("a create an approval policy holds", () => {
  it("is pending with its change request in every format, exits 1, and neither it nor what depends on it is created", async () => {
    await h.reseed<PartialState>((s) => {
      s.approval_policies?.push({
        organization: ACME_ID,
        action_key: "feature_flag.enable",
        approver_config: { quorum: 1, users: [2] },
      });
    });
    flagsFile(`  - key: gated-launch
    filters:
      groups: [{rollout_percentage: 10}]
  - key: gated-follower
    filters:
      groups:
        - properties: [{type: flag, key: gated-launch, operator: flag_evaluates_to, value: true}]
`);
    const held = await h.cli(["apply", "--auto-approve", "p"]);
    expect(held.code).toBe(1);
    const pending = held.stdout.match(
      /⧗ \+ create · feature flag "gated-launch" in project 12345 — pending approval: change request ([0-9a-f-]{36})/,
    );
    expect(pending?.[1], held.stdout).toBeDefined();
    expect(held.stdout).toMatch(/feature flag "gated-follower" in project 12345 — .*waits for approval/);
    expect(held.stdout).toContain(
      "Apply incomplete: 0 succeeded, 0 failed, 1 pending approval (not live until approved), 1 skipped.",
    );
    const requests = (await h.api("GET", `${P}/change_requests/?state=pending`)).body.results;
    expect(requests.map((r: Json) => r.id)).toEqual([pending?.[1]]);
    for (const key of ["gated-launch", "gated-follower"]) {
      expect((await h.api("GET", `${FLAGS}/?key=${key}`)).body.results).toEqual([]);
    }

    const json = await h.cli(["apply", "--auto-approve", "--format", "json", "p"]);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout);
    expect(result.ok).toBe(false);
    expect(
      result.results.map((r: Json) => [r.action.object.name, r.outcome, r.change_request ?? null]),
    ).toEqual([
      ["gated-launch", "pending", pending?.[1]],
      ["gated-follower", "skipped", null],
    ]);
    expect((await h.api("GET", `${FLAGS}/?key=gated-launch`)).body.results).toEqual([]);
  });
});

describe("a flag declared without filters", () => {
  it("is created with the service's default, no condition, and the plan says so; no groups is an error only with filters", async () => {
    flagsFile("  - key: dark-launch\n    name: Dark launch\n");
    const validate = await h.cli(["validate", "p"]);
    expect(validate.code).toBe(0);
    expect(validate.stdout + validate.stderr).not.toMatch(/condition|groups/);
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      "declared without filters: the service creates it with no release condition (groups: []), so it is on for no one until filters.groups declares one",
    );
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code, apply.stderr).toBe(0);
    const live = (await h.api("GET", `${FLAGS}/?key=dark-launch`)).body.results[0];
    expect(live.filters).toEqual({ groups: [] });
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    for (const [filters, written] of [
      ["{}", "filters: {}"],
      ["{groups: []}", "groups: []"],
    ] as const) {
      flagsFile(`  - key: empty-targeting\n    filters: ${filters}\n`);
      const refused = await h.cli(["plan", "p"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `p/flags.yaml:3:5: error: feature flag "empty-targeting" does not exist yet and its filters declare no release condition (${written}): the service creates a flag only with at least one in filters.groups, or with no filters at all`,
      );
    }
  });
});

describe("a flag is named by its key in every message", () => {
  it("validate's schema errors, plan's errors and lines, apply's results and a prune: the key, never its name", async () => {
    flagsFile("  - key: named-flag\n    name: A flag with a description\n    active: sometimes\n");
    const validate = await h.cli(["validate", "p"]);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain('feature flag "named-flag"');
    expect(validate.stdout + validate.stderr).not.toContain("A flag with a description");

    flagsFile(
      "  - key: named-flag\n    name: A flag with a description\n    filters:\n      groups:\n        - properties: [{type: flag, key: no-such-flag, operator: flag_evaluates_to, value: true}]\n",
    );
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('feature flag "named-flag"');
    expect(plan.stderr).not.toContain("A flag with a description");

    flagsFile(
      "  - key: named-flag\n    name: A flag with a description\n    filters: {groups: [{rollout_percentage: 5}]}\n",
    );
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/✓ \+ create · feature flag "named-flag" \(id \d+\) in project 12345/);
    flagsFile("");
    const prune = await h.cli(["plan", "--prune", "--force", "p"]);
    expect(prune.stdout).toContain('- feature flag "named-flag"');
    expect(prune.stdout + prune.stderr).not.toContain("A flag with a description");
  });
});

describe("flag dependencies by key", () => {
  it("one file, two projects: each dependent names its own project's id; the dependency is created first", async () => {
    const body = `  - key: search-v2
    filters:
      groups: [{rollout_percentage: 100}]
  - key: search-ui
    filters:
      groups:
        - properties: [{type: flag, key: search-v2, operator: flag_evaluates_to, value: true}]
          rollout_percentage: 50
`;
    // The dependent comes first in the file: apply order follows the dependency, not the file.
    const [dependency, dependent] = body.split(/(?= {2}- key: search-ui)/);
    flagsFile(`${dependent}${dependency}`, 12345, "p/prod.yaml");
    flagsFile(`${dependent}${dependency}`, 12346, "p/staging.yaml");
    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const apply = await h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: proxy.url });
    expect(apply.code).toBe(0);
    for (const project of [12345, 12346]) {
      const posts = proxy.recorded
        .filter((r) => r.method === "POST" && r.path.startsWith(`/api/projects/${project}/feature_flags/`))
        .map((r) => JSON.parse(r.body).key);
      expect(posts).toEqual(["search-v2", "search-ui"]);
      const target = await idOf("search-v2", project);
      const ui = await liveFlag(await idOf("search-ui", project), project);
      expect(ui.filters.groups[0].properties[0]).toMatchObject({ type: "flag", key: String(target) });
    }
    expect(await idOf("search-v2", 12345)).not.toBe(await idOf("search-v2", 12346));
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("resolves a key among the project's live flags; a key found nowhere is an error at its line", async () => {
    flagsFile(`  - key: checkout-v2
    filters:
      groups:
        - properties:
            - {type: flag, key: checkout-v1, operator: flag_evaluates_to, value: true}
            - {type: flag, key: checkout-v0, operator: flag_evaluates_to, value: true}
`);
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'p/flags.yaml:8:33: error: feature flag "checkout-v2" depends on flag "checkout-v0", which is neither declared nor a live flag of project 12345',
    );
    expect(plan.stderr).not.toContain('"checkout-v1"');
  });

  it("finds an archived flag by key too, and quotes the service's refusal of a dependency on a disabled flag", async () => {
    flagsFile(`  - key: banner-v2
    filters:
      groups:
        - properties: [{type: flag, key: old-banner, operator: flag_evaluates_to, value: true}]
`);
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(
      /✗ \+ create · feature flag "banner-v2" in project 12345 — POST feature_flags: 400/,
    );
    expect(apply.stdout).toContain("old-banner");
  });

  it("resolves cohorts by name per project with one cohorts read; an unknown name is an error at its line", async () => {
    const body = `  - key: beta-search
    filters:
      groups:
        - properties: [{type: cohort, cohort: Beta testers}]
          rollout_percentage: 100
`;
    flagsFile(body, 12345, "p/prod.yaml");
    flagsFile(body, 12346, "p/staging.yaml");
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(0);
    const cohortReads = (await h.requests()).filter((r) => r.path.includes("/cohorts/"));
    expect(cohortReads.map((r) => r.path).sort()).toEqual([
      "/api/projects/12345/cohorts/",
      "/api/projects/12346/cohorts/",
    ]);
    const prod = await liveFlag(await idOf("beta-search", 12345), 12345);
    const staging = await liveFlag(await idOf("beta-search", 12346), 12346);
    expect(prod.filters.groups[0].properties[0]).toMatchObject({
      type: "cohort",
      value: 1,
      cohort_name: "Beta testers",
    });
    expect(staging.filters.groups[0].properties[0]).toMatchObject({ type: "cohort", value: 4 });
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    h.write("p/staging.yaml", "project: 12346\nfeature_flags: []\n");
    flagsFile(body.replace("Beta testers", "Gamma testers"), 12345, "p/prod.yaml");
    const unknown = await h.cli(["plan", "p"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'p/prod.yaml:6:47: error: feature flag "beta-search" names cohort "Gamma testers", which is neither declared nor a live cohort of project 12345',
    );
  });

  it("reads no cohorts when no file names one", async () => {
    flagsFile("  - key: checkout-v1\n    active: true\n");
    await h.clearRequests();
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    const paths = (await h.requests()).map((r) => r.path);
    expect(paths.filter((p) => p.includes("cohorts"))).toEqual([]);
    expect(paths.filter((p) => p.includes("feature_flags"))).toEqual([`${FLAGS}/`]);
  });
});

describe("pull", () => {
  it("writes the project's flags such that the next plan is empty: keys in dependencies, cohorts by name", async () => {
    const pull = await h.cli(["pull", "--kind", "feature_flags", "--out", "p"], {
      POSTHOG_PROJECT_ID: "12345",
    });
    expect(pull.code).toBe(0);
    expect(pull.stderr).toContain("set these secret variables before apply: PRICING_CONFIG_PAYLOAD_TRUE");
    const text = readFileSync(join(h.dir, "p/feature-flags.yaml"), "utf8");
    expect(text).toMatch(/- key: checkout-v1\n\s+type: flag/);
    expect(text).toMatch(/- type: cohort\n\s+cohort: Beta testers/);
    expect(text).toContain('"true": ${PRICING_CONFIG_PAYLOAD_TRUE}');
    expect(text).not.toContain("old-banner");
    expect(text).not.toContain("legacy-onboarding");
    const plan = await h.cli(["plan", "--detailed-exitcode", "p"]);
    expect(plan.stdout).toBe("No changes. The live service matches the configuration.\n");
    expect(plan.code).toBe(0);
  });

  it("keeps a UI edit visible: pulled defaults make the next plan show it", async () => {
    expect(
      (await h.cli(["pull", "--kind", "feature_flags", "--out", "p"], { POSTHOG_PROJECT_ID: "12345" })).code,
    ).toBe(0);
    await h.api(
      "PATCH",
      `${FLAGS}/${FLAG_IDS.holidayPromo}/`,
      { ensure_experience_continuity: true },
      { key: BOB_KEY },
    );
    const plan = await h.cli(["plan", "p"]);
    expect(plan.stdout).toContain('~ feature flag "holiday-promo"');
    expect(plan.stdout).toContain("ensure_experience_continuity: true → false");
  });
});

describe("the service's rewrites are never a diff", () => {
  it("aggregation copied into groups, payload strings, cohort_name, min/max, null variant names, a UI sort_key", async () => {
    flagsFile(`  - key: rewrites
    filters:
      aggregation_group_type_index: 0
      groups:
        - properties:
            - {key: seats, type: group, group_type_index: 0, operator: min, value: 10}
          rollout_percentage: 50
        - rollout_percentage: 10
      multivariate:
        variants:
          - {key: a, name: null, rollout_percentage: 34}
          - {key: b, rollout_percentage: 66}
      payloads:
        a: {size: 1, labels: [x, y]}
        b: "plain text"
  - key: cohorted
    filters:
      groups:
        - properties: [{type: cohort, cohort: Internal staff}]
`);
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    const stored = await liveFlag(await idOf("rewrites"));
    expect(stored.filters.groups.map((g: Json) => g.aggregation_group_type_index)).toEqual([0, 0]);
    expect(stored.filters.groups[0].properties[0].operator).toBe("gte");
    expect(typeof stored.filters.payloads.a).toBe("string");
    const cohorted = await liveFlag(await idOf("cohorted"));
    expect(cohorted.filters.groups[0].properties[0].cohort_name).toBe("Internal staff");
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    // The UI stores a sort_key on each condition and re-saves the payload with other spacing.
    const groups = stored.filters.groups.map((g: Json, i: number) => ({ ...g, sort_key: `key-${i}` }));
    const payloads = { a: '{"labels": ["x", "y"], "size": 1}', b: '"plain text"' };
    const edit = { filters: { ...stored.filters, groups, payloads } };
    expect((await h.api("PATCH", `${FLAGS}/${stored.id}/`, edit, { key: BOB_KEY })).status).toBe(200);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

describe("--target feature_flags/KEY", () => {
  it("plans and applies only the flags named", async () => {
    flagsFile(
      "  - key: one-flag\n    filters: {groups: [{rollout_percentage: 10}]}\n  - key: two-flag\n    filters: {groups: [{rollout_percentage: 20}]}\n",
    );
    const plan = JSON.parse(
      (await h.cli(["plan", "--format", "json", "--target", "feature_flags/one-*", "p"])).stdout,
    );
    expect(plan.actions.map((a: Json) => a.object.name)).toEqual(["one-flag"]);
    expect((await h.cli(["apply", "--auto-approve", "--target", "feature_flags/one-flag", "p"])).code).toBe(
      0,
    );
    expect((await h.api("GET", `${FLAGS}/?key=two-flag`)).body.results).toEqual([]);
    expect((await h.api("GET", `${FLAGS}/?key=one-flag`)).body.results).toHaveLength(1);
  });
});

describe("what a no-op plan of flags costs (SPEC §6)", () => {
  it("its list pages only: 250 flags, 3 pages; a cohort by name adds one cohorts read", async () => {
    const n = 250;
    await h.reseed<PartialState>((s) => {
      s.feature_flags = Array.from({ length: n }, (_, i) => ({
        id: i + 1,
        team_id: 12345,
        key: `f-${i}`,
        filters: {
          groups: [
            {
              properties: i === 0 ? [{ key: "id", type: "cohort", operator: "in", value: 1 }] : [],
              rollout_percentage: i % 100,
            },
          ],
        },
      }));
      s.experiments = [];
    });
    const items = (cohort: string) =>
      Array.from(
        { length: n },
        (_, i) =>
          `  - key: f-${i}\n    filters:\n      groups:\n        - rollout_percentage: ${i % 100}${i === 0 ? `\n          properties: [{type: cohort, ${cohort}, operator: in}]` : ""}\n`,
      ).join("");
    for (const [cohort, cohortReads] of [
      ["value: 1", 0],
      ["cohort: Beta testers", 1],
    ] as const) {
      flagsFile(items(cohort));
      await h.clearRequests();
      const plan = await h.cli(["plan", "--detailed-exitcode", "p"]);
      expect(plan.stdout).toContain("No changes");
      const requests = await h.requests();
      expect(requests.filter((r) => r.path === `${FLAGS}/`)).toHaveLength(Math.ceil(n / 100));
      expect(requests.filter((r) => r.path.endsWith("/cohorts/"))).toHaveLength(cohortReads);
      expect(requests).toHaveLength(Math.ceil(n / 100) + cohortReads);
    }
  });
});

describe("pull --refresh", () => {
  it("writes a UI edit of a flag back into the file in the file's form, then the plan is empty", async () => {
    flagsFile(`  - key: new-checkout
    name: New checkout flow
    filters:
      groups:
        - properties:
            - {key: email, type: person, operator: icontains, value: "@acme.com"}
            - {type: flag, key: checkout-v1, operator: flag_evaluates_to, value: true}
            - {type: cohort, cohort: Beta testers, operator: in}
          rollout_percentage: 100
        - rollout_percentage: 20   # the second wave
`);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    const stored = await liveFlag(FLAG_IDS.newCheckout);
    stored.filters.groups[1].rollout_percentage = 35;
    const edit = { filters: { groups: stored.filters.groups }, name: "Checkout, second wave" };
    expect((await h.api("PATCH", `${FLAGS}/${FLAG_IDS.newCheckout}/`, edit, { key: BOB_KEY })).status).toBe(
      200,
    );
    const before = readFileSync(join(h.dir, "p/flags.yaml"), "utf8");
    const refresh = await h.cli(["pull", "--refresh", "p"]);
    expect(refresh.code, refresh.stderr).toBe(0);
    // Two lines, each where it stands: the name, and the rollout with its comment; nothing else.
    expect(readFileSync(join(h.dir, "p/flags.yaml"), "utf8")).toBe(
      before
        .replace("    name: New checkout flow", "    name: Checkout, second wave")
        .replace(
          "- rollout_percentage: 20   # the second wave",
          "- rollout_percentage: 35   # the second wave",
        ),
    );
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});
