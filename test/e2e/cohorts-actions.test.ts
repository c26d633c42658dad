/**
 * Cohorts and actions end to end (issue 33; SPEC §2 "Cohorts and actions"): the real CLI against the
 * real emulator over loopback. What refers to what, all new, lands in one apply in order (an action, a
 * cohort using it, a cohort using that one and a cohort of person properties, a flag depending on a new
 * flag and that cohort, an insight counting the action broken down by a cohort), then the plan is
 * empty; the service upgrades every cohort's bytecode and recalculates, and the plan stays empty; a
 * cohort a flag uses cannot be soft-deleted (the service's reason quoted, the rest of the apply done);
 * what the service would refuse and the plan knows is a plan error at the line; a name two live
 * cohorts hold is an error naming both ids; pull → plan empty.
 */
import { describe, expect, it } from "vitest";
import { P, recordingProxy, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const project = { POSTHOG_PROJECT_ID: "12345" };

const FILES = `project: 12345
actions:
  - name: Opened the app
    description: Any screen of the app
    steps:
      - {event: $screen}
      - {event: $pageview, url: " /app ", selector: " main "}
cohorts:
  - name: App openers
    filters:
      properties:
        type: AND
        values:
          - {type: behavioral, value: performed_event, event_type: actions, action: Opened the app, time_value: "30", time_interval: day}
  - name: Acme people
    filters:
      properties:
        type: OR
        values:
          - {type: person, key: email, operator: icontains, value: ["@acme.com"]}
  - name: Engaged
    description: App openers, or Acme people
    filters:
      properties:
        type: OR
        values:
          - {type: cohort, cohort: App openers}
          - {type: cohort, cohort: Acme people}
feature_flags:
  - key: app-shell
    filters:
      groups: [{rollout_percentage: 100}]
  - key: app-redesign
    filters:
      groups:
        - properties:
            - {type: flag, key: app-shell, operator: flag_evaluates_to, value: true}
            - {type: cohort, cohort: Acme people, operator: in}
          rollout_percentage: 50
insights:
  - name: App opens
    query:
      kind: InsightVizNode
      source:
        kind: TrendsQuery
        series: [{kind: ActionsNode, action: Opened the app, math: total}]
        breakdownFilter: {breakdown_type: cohort, cohort: [Engaged]}
  - name: App retention
    query:
      kind: InsightVizNode
      source:
        kind: RetentionQuery
        retentionFilter:
          targetEntity: {type: actions, action: Opened the app}
          returningEntity: {id: $pageview, type: events}
`;

async function plansNothing(): Promise<void> {
  const plan = await h.cli(["plan", "--detailed-exitcode", "p"], project);
  expect(plan.stdout, plan.stderr).toContain("No changes");
  expect(plan.code).toBe(0);
}

describe("cohorts and actions against the emulator", () => {
  it("what refers to what, all new, lands in one apply in order; the plan after is empty, after a bytecode upgrade too", async () => {
    h.write("p/all.yaml", FILES);
    const plan = await h.cli(["plan", "p"], project);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('needs action "Opened the app" (created in this apply)');
    expect(plan.stdout).toContain(
      'needs feature flag "app-shell" (created in this apply), cohort "Acme people" (created in this apply)',
    );
    const proxy = await recordingProxy(() => h.url);
    const apply = await h
      .cli(["apply", "--auto-approve", "p"], { ...project, POSTHOG_HOST: proxy.url })
      .finally(proxy.close);
    expect(apply.code, `${apply.stdout}\n${apply.stderr}`).toBe(0);
    const posts = proxy.recorded
      .filter((r) => r.method === "POST")
      .map((r) => {
        const body = JSON.parse(r.body) as { name?: string; key?: string };
        return `${r.path.split("/")[4]} ${body.name ?? body.key}`;
      });
    const at = (what: string) => {
      expect(posts).toContain(what);
      return posts.indexOf(what);
    };
    expect(at("actions Opened the app")).toBeLessThan(at("cohorts App openers"));
    expect(at("cohorts App openers")).toBeLessThan(at("cohorts Engaged"));
    expect(at("cohorts Acme people")).toBeLessThan(at("cohorts Engaged"));
    expect(at("cohorts Acme people")).toBeLessThan(at("feature_flags app-redesign"));
    expect(at("feature_flags app-shell")).toBeLessThan(at("feature_flags app-redesign"));
    expect(at("cohorts Engaged")).toBeLessThan(at("insights App opens"));
    expect(at("actions Opened the app")).toBeLessThan(at("insights App opens"));
    // Each body carried the ids the creates before it returned.
    const state = await h.state();
    const live = (kind: string, name: string) =>
      state[kind].find(
        (o: { name: string; team_id: number; deleted: boolean }) =>
          o.name === name && o.team_id === 12345 && !o.deleted,
      );
    const engaged = JSON.stringify(live("cohorts", "Engaged").filters);
    expect(engaged).toContain(`"value":${live("cohorts", "App openers").id}`);
    expect(engaged).toContain(`"value":${live("cohorts", "Acme people").id}`);
    expect(JSON.stringify(live("cohorts", "App openers").filters)).toContain(
      `"key":${live("actions", "Opened the app").id}`,
    );
    await plansNothing();

    // A service upgrade rewrites every cohort's bytecode and recalculates it: still nothing to do.
    const before = live("cohorts", "Engaged").filters;
    expect((await h.control("POST", "cohorts/upgrade_bytecode", {})).status).toBe(200);
    const after = (await h.state()).cohorts.find(
      (c: { id: number }) => c.id === live("cohorts", "Engaged").id,
    );
    expect(JSON.stringify(after.filters)).not.toEqual(JSON.stringify(before));
    await h.clearRequests();
    await plansNothing();
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a saved plan of them applies as it was made (the same reads again), then nothing is left", async () => {
    h.write("p/all.yaml", FILES.replace("  - name: App openers\n", "  - name: App openers\n    id: 999\n"));
    const refused = await h.cli(["plan", "p"], project);
    expect(refused.stdout + refused.stderr).toContain(
      'cohort "App openers" pins id 999, which project 12345 does not have (live or soft-deleted): remove the `id:` pin to create it',
    );
    h.write("p/all.yaml", FILES);
    const saved = await h.cli(["plan", "--out", "saved.json", "p"], project);
    expect(saved.code, saved.stderr).toBe(0);
    const apply = await h.cli(["apply", "--plan", "saved.json", "--auto-approve"], project);
    expect(apply.code, `${apply.stdout}\n${apply.stderr}`).toBe(0);
    await plansNothing();
  });

  it("a pinned soft-deleted cohort is read by id and restored, then compared", async () => {
    const made = await h.api("POST", `${P}/cohorts/`, {
      name: "Old list",
      filters: {
        properties: { type: "AND", values: [{ type: "person", key: "a", operator: "exact", value: "b" }] },
      },
    });
    expect((await h.api("PATCH", `${P}/cohorts/${made.body.id}/`, { deleted: true })).status).toBe(200);
    h.write(
      "p/c.yaml",
      `project: 12345\ncohorts:\n  - name: Old list\n    id: ${made.body.id}\n    description: back\n`,
    );
    const plan = JSON.parse((await h.cli(["plan", "--format", "json", "p"], project)).stdout);
    expect(plan.actions.map((a: { action: string }) => a.action)).toEqual(["restore", "update"]);
    expect((await h.cli(["apply", "--auto-approve", "p"], project)).code).toBe(0);
    await plansNothing();
  });

  it("a cohort a flag uses is not soft-deleted: the service's reason quoted, the rest of the apply done", async () => {
    h.write(
      "p/c.yaml",
      "project: 12345\ncohorts:\n  - name: Beta testers\n    deleted: true\n  - name: Newcomers\n    filters: {properties: {type: AND, values: [{type: person, key: plan, operator: exact, value: [free]}]}}\n",
    );
    // The files list no flags, so the plan knows of the cohort that contains it, not of the flag.
    const plan = await h.cli(["plan", "p"], project);
    expect(plan.stdout).toContain(
      '! still used by cohort "Beta testers or staff": the service refuses to delete a cohort that flags, insights or other cohorts use',
    );
    const apply = await h.cli(["apply", "--auto-approve", "p"], project);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(
      /This cohort is used in \d+ active feature flag\(s\): .*Please remove the cohort from these feature flags before deleting it\./,
    );
    const state = await h.state();
    expect(state.cohorts.find((c: { id: number }) => c.id === 1).deleted).toBe(false);
    expect(
      state.cohorts.some((c: { name: string; deleted: boolean }) => c.name === "Newcomers" && !c.deleted),
    ).toBe(true);
  });

  it("refuses at plan, at the line, what the service would refuse: a behavioral cohort in a flag", async () => {
    h.write(
      "p/f.yaml",
      "project: 12345\nfeature_flags:\n  - key: buyers-only\n    filters:\n      groups:\n        - properties: [{type: cohort, cohort: Recent purchasers, operator: in}]\n          rollout_percentage: 100\n",
    );
    const plan = await h.cli(["plan", "p"], project);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toMatch(
      /p\/f\.yaml:6:\d+: .*feature flag "buyers-only" targets cohort "Recent purchasers" which filters on what people did \(a behavioral condition\): the service refuses it in a flag \("Cohort 'Recent purchasers' with filters on events cannot be used in feature flags\."\)/,
    );
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a name two live cohorts hold is an error naming both ids", async () => {
    const second = await h.api("POST", `${P}/cohorts/`, {
      name: "Beta testers",
      filters: {
        properties: { type: "AND", values: [{ type: "person", key: "a", operator: "exact", value: "b" }] },
      },
    });
    expect(second.status).toBe(201);
    h.write(
      "p/f.yaml",
      "project: 12345\nfeature_flags:\n  - key: betas\n    filters:\n      groups: [{properties: [{type: cohort, cohort: Beta testers, operator: in}], rollout_percentage: 100}]\n",
    );
    const plan = await h.cli(["plan", "p"], project);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain(
      `cohort name "Beta testers" is held by cohorts ${second.body.id}, 1 of project 12345: name it by id instead (value: <id>)`,
    );
  });

  it("tags of an action without the tagging feature: the first apply says so, then a note, never a change", async () => {
    const state = await h.state();
    for (const org of state.organizations) org.features.tagging = false;
    await h.seed(state);
    h.write(
      "p/a.yaml",
      "project: 12345\nactions:\n  - name: Tagged\n    tags: [growth]\n    steps: [{event: x}]\n",
    );
    const first = await h.cli(["apply", "--auto-approve", "p"], project);
    expect(first.code, first.stderr).toBe(0);
    expect(`${first.stdout}${first.stderr}`).toMatch(/tagging/);
    const json = JSON.parse((await h.cli(["plan", "--format", "json", "p"], project)).stdout);
    expect(json.actions).toEqual([]);
    expect(JSON.stringify(json.notes)).toMatch(/Tagged/);
  });

  it("--prune soft-deletes undeclared cohorts and actions, never those the ignore: globs name", async () => {
    h.write(
      "p/prune.yaml",
      'project: 12345\nignore:\n  cohorts: ["Beta*", "Internal*", "Recent*", "Signed*"]\n  actions: ["Signed*", "Viewed*"]\ncohorts: []\nactions: []\n',
    );
    const plan = JSON.parse((await h.cli(["plan", "--prune", "--format", "json", "p"], project)).stdout);
    const pruned = plan.actions.map((a: { action: string; object: { kind: string; name: string } }) => [
      a.action,
      a.object.kind,
      a.object.name,
    ]);
    expect(pruned.sort()).toEqual([
      ["soft_delete", "action", "Clicked buy button"],
      ["soft_delete", "cohort", "Conference attendees"],
    ]);
  });

  it("pull writes cohorts, actions and what names them by name; the plan of the pulled files is empty", async () => {
    h.write("p/all.yaml", FILES);
    expect((await h.cli(["apply", "--auto-approve", "p"], project)).code).toBe(0);
    const pull = await h.cli(["pull", "--out", "pulled"], project);
    expect(pull.code, pull.stderr).toBe(0);
    const cohorts = (await import("node:fs")).readFileSync(`${h.dir}/pulled/cohorts.yaml`, "utf8");
    expect(cohorts).toContain("action: Opened the app");
    expect(cohorts).toContain("cohort: App openers");
    expect(cohorts).not.toMatch(/bytecode|conditionHash/);
    const plan = await h.cli(["plan", "--detailed-exitcode", "pulled"], project);
    expect(plan.stdout, plan.stderr).toContain("No changes");
    expect(plan.code).toBe(0);
  });
});
