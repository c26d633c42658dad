/**
 * Change-scoped plans and applies of feature flags (SPEC §3 "Change-scoped plans", "Live edits"): the
 * real CLI against the emulator, in a real git repository, in a project of 1,000 flags. A flag change
 * reads that flag by key (or by id when pinned), the flags it depends on with it, and the cohorts only
 * when it names one by name, never the flag list; an unrelated merge applied that way never turns a
 * flag back on that someone switched off in the UI, while a full apply does; a saved change-scoped plan
 * applies exactly what it read, and is refused when the flag changed since.
 */

import { BOB_KEY } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { type Json, type LoggedRequest, type PartialState, useEmulator } from "../support/emulator.js";
import { GIT_ENV, gitRepo, type Repo } from "../support/git-repo.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator();
const N = 1000;
const FLAGS = "/api/projects/12345/feature_flags";
const key = (i: number) => `f-${String(i).padStart(4, "0")}`;
/** Flags 0–9 are pinned by id in the files; every flag's id is 1000 + its number. */
const idOf = (i: number) => 1000 + i;
const GATE = 5000;
const ARCHIVED = 5001;
const rollout = (i: number) => i % 100;

/** Flag 300 depends on the live flag `legacy-gate`, which no file declares. */
const gateCondition = { type: "flag", key: String(GATE), operator: "flag_evaluates_to", value: true };

function records(): Json[] {
  const flags: Json[] = Array.from({ length: N }, (_, i) => ({
    id: idOf(i),
    team_id: 12345,
    key: key(i),
    filters: {
      groups: [{ properties: i === 300 ? [gateCondition] : [], rollout_percentage: rollout(i) }],
    },
  }));
  flags.push(
    { id: GATE, team_id: 12345, key: "legacy-gate", filters: { groups: [{ rollout_percentage: 100 }] } },
    {
      id: ARCHIVED,
      team_id: 12345,
      key: "f-archived",
      name: "Old experiment",
      active: false,
      archived: true,
      filters: { groups: [{ rollout_percentage: 0 }] },
    },
  );
  return flags;
}

/** The YAML of flag `i` as it is live, or as `change` rewrites its lines. */
function item(i: number, change?: (lines: string[]) => string[]): string[] {
  const lines = [`  - key: ${key(i)}`];
  if (i < 10) lines.push(`    id: ${idOf(i)}`);
  lines.push(
    "    active: true",
    "    filters:",
    "      groups:",
    `        - rollout_percentage: ${rollout(i)}`,
  );
  if (i === 300) {
    lines.push(
      "          properties: [{type: flag, key: legacy-gate, operator: flag_evaluates_to, value: true}]",
    );
  }
  return change ? change(lines) : lines;
}

const ARCHIVED_ITEM = [
  "  - key: f-archived",
  "    name: Old experiment",
  "    active: false",
  "    archived: true",
];

function flagsYaml(
  changes: Record<number, (lines: string[]) => string[]> = {},
  extra: string[] = [],
): string {
  const lines = ["project: 12345", "feature_flags:"];
  for (let i = 0; i < N; i++) lines.push(...item(i, changes[i]));
  lines.push(...ARCHIVED_ITEM, ...extra);
  return `${lines.join("\n")}\n`;
}

/** Rollout of flag `i` set to `to`. */
const widen =
  (to: number) =>
  (lines: string[]): string[] =>
    lines.map((l) => (l.includes("rollout_percentage") ? l.replace(/\d+$/, String(to)) : l));

/** The fleet seeded, declared and committed on `main`. */
async function setUp(): Promise<Repo> {
  await h.reseed<PartialState>((s) => {
    s.feature_flags = records();
    s.experiments = [];
  });
  const repo = gitRepo(h.dir);
  repo.write("posthog/flags.yaml", flagsYaml());
  repo.commit("the flags");
  await h.clearRequests();
  return repo;
}

const cli = (args: string[]) => h.cli(args, GIT_ENV);
const api = (r: LoggedRequest) => r.path.startsWith("/api/");
const shown = (r: LoggedRequest) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`;
const listWalk = (r: LoggedRequest) =>
  r.path === `${FLAGS}/` && !new URLSearchParams(r.query).has("key") && r.method === "GET";
const actions = (out: string) => out.split("\n").filter((l) => /^\s+[+~\-↺⊟⊞] /.test(l));

async function flag(id: number): Promise<Json> {
  return (await h.api("GET", `${FLAGS}/${id}/`)).body;
}

describe("plan --base REF --changed-only, feature flags", () => {
  it("a change of 3 flags (by key, pinned, new) in a project of 1,000 reads them in 4 requests, never the list", async () => {
    await setUp();
    expect((await cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
    await h.clearRequests();
    h.write(
      "posthog/flags.yaml",
      flagsYaml({ 420: widen(65), 7: (lines) => [...lines, "    name: Seventh"] }, [
        "  - key: brand-new",
        "    filters:",
        "      groups: [{rollout_percentage: 5}]",
      ]),
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(2);
    // The flag by key, the pinned one by id, the new key in the list and then among archived flags
    // (a key the list hides may be an archived flag's): nothing else, no page of the list.
    expect((await h.requests()).filter(api).map(shown).sort()).toEqual(
      [
        `GET ${FLAGS}/?key=f-0420&limit=100`,
        `GET ${FLAGS}/${idOf(7)}/`,
        `GET ${FLAGS}/?key=brand-new&limit=100`,
        `GET ${FLAGS}/?key=brand-new&archived=true&limit=100`,
      ].sort(),
    );
    expect(scoped.stdout).toContain(
      "This plan covers only the change since main: 3 of 1002 declarations, those it adds, modifies or deletes, were read and planned.\nThe other 999 declarations were not read, so edits made to them in PostHog (drift) do not show here; a full plan, such as the nightly drift workflow's, shows them.",
    );
    expect(scoped.stdout).toContain("filters.groups: group 1: rollout 20% → 65%");
    expect(scoped.stdout).toContain("Plan: 1 to create, 2 to update.");

    await h.clearRequests();
    const full = await cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(full.code).toBe(2);
    // The full plan: the list's pages (1,001 flags with legacy-gate) and the archived flags' list (a
    // declared key the list lacks may be an archived flag's).
    expect((await h.requests()).filter(listWalk)).toHaveLength(Math.ceil((N + 1) / 100) + 1);
    expect(actions(scoped.stdout)).toEqual(actions(full.stdout));
  });

  it("a dependency on a live flag no file declares is read by key, one declared with a pin by id", async () => {
    await setUp();
    const depends = (lines: string[]) => [
      ...lines,
      "          properties:",
      "            - {type: flag, key: legacy-gate, operator: flag_evaluates_to, value: true}",
      `            - {type: flag, key: ${key(2)}, operator: flag_evaluates_to, value: true}`,
    ];
    h.write("posthog/flags.yaml", flagsYaml({ 100: depends }));
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(2);
    expect((await h.requests()).filter(api).map(shown).sort()).toEqual(
      [
        `GET ${FLAGS}/?key=f-0100&limit=100`,
        `GET ${FLAGS}/?key=legacy-gate&limit=100`,
        `GET ${FLAGS}/${idOf(2)}/`,
      ].sort(),
    );
    expect(scoped.stdout).toContain("flag legacy-gate is true and flag f-0002 is true");
    expect(scoped.stdout).toContain("Plan: 1 to update.");

    // Applied the same way, the flag names both dependencies by this project's ids.
    const applied = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await flag(idOf(100))).filters.groups[0].properties.map((p: Json) => p.key)).toEqual([
      String(GATE),
      String(idOf(2)),
    ]);
    expect((await cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);

    // A dependency declared but not live (soft-deleted in the UI) is not created by a change-scoped
    // plan, which says so at the condition; the full plan creates it first.
    expect((await h.api("PATCH", `${FLAGS}/${idOf(500)}/`, { deleted: true })).status).toBe(200);
    const onGone = (lines: string[]) => [
      ...lines,
      `          properties: [{type: flag, key: ${key(500)}, operator: flag_evaluates_to, value: true}]`,
    ];
    h.write("posthog/flags.yaml", flagsYaml({ 100: depends, 101: onGone }));
    const gone = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(
      /posthog\/flags\.yaml:\d+:\d+: error: feature flag "f-0101" depends on flag "f-0500", which is declared but not live in project 12345, and a change-scoped plan leaves its unchanged declaration as it is: a full plan creates it/,
    );
    const full = await cli(["plan", "posthog"]);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toContain(`+ feature flag "${key(500)}"`);
  });

  it("a condition the change removes names its flag by key, read by id (as the full plan shows it)", async () => {
    await setUp();
    h.write(
      "posthog/flags.yaml",
      flagsYaml({ 300: (lines) => lines.filter((l) => !l.includes("legacy-gate")) }),
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect((await h.requests()).filter(api).map(shown).sort()).toEqual(
      [`GET ${FLAGS}/?key=f-0300&limit=100`, `GET ${FLAGS}/${GATE}/`].sort(),
    );
    expect(scoped.stdout).toContain("flag legacy-gate is true");
    expect(scoped.stdout).not.toContain(`#${GATE}`);
    const full = await cli(["plan", "posthog"]);
    expect(actions(scoped.stdout)).toEqual(actions(full.stdout));
    // The two plans are made a moment apart on a clock that runs: a "last modified … (2s ago)" may
    // read "(3s ago)" in the second, which is no difference in what the plans say.
    const section = (out: string) =>
      out.slice(out.indexOf("~ feature flag")).replace(/\(\d+s ago\)/g, "(…s ago)");
    expect(section(scoped.stdout)).toBe(section(full.stdout));
  });

  it("a cohort named by name costs one search, never the cohorts' list", async () => {
    await setUp();
    const cohort = (lines: string[]) => [
      ...lines,
      "          properties: [{type: cohort, cohort: Beta testers}]",
    ];
    h.write("posthog/flags.yaml", flagsYaml({ 200: cohort }));
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(2);
    expect((await h.requests()).filter(api).map(shown).sort()).toEqual(
      [
        `GET ${FLAGS}/?key=f-0200&limit=100`,
        "GET /api/projects/12345/cohorts/?search=Beta+testers&limit=100",
      ].sort(),
    );
    expect(scoped.stdout).toContain('in cohort "Beta testers"');
  });

  it("an archived flag is found by key among the archived ones, and a soft-deleted pin by id for its restore", async () => {
    const repo = await setUp();
    // At REF flag 8 is a tombstone, and soft-deleted live.
    expect((await h.api("PATCH", `${FLAGS}/${idOf(8)}/`, { deleted: true })).status).toBe(200);
    repo.write(
      "posthog/flags.yaml",
      flagsYaml({ 8: (lines) => [...lines.slice(0, 2), "    deleted: true"] }),
    );
    repo.commit("flag 8 goes");
    await h.clearRequests();
    // The change: flag 8 back (its pin restores it), and the archived flag's description.
    h.write(
      "posthog/flags.yaml",
      flagsYaml({}, []).replace("    name: Old experiment\n", "    name: Retired experiment\n"),
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--format", "json", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect((await h.requests()).filter(api).map(shown).sort()).toEqual(
      [
        `GET ${FLAGS}/${idOf(8)}/`,
        `GET ${FLAGS}/?key=f-archived&limit=100`,
        `GET ${FLAGS}/?key=f-archived&archived=true&limit=100`,
      ].sort(),
    );
    const plan = validJson("plan", scoped.stdout);
    expect(plan.actions.map((a: Json) => `${a.action} ${a.object.name}`)).toEqual([
      `restore ${key(8)}`,
      "update f-archived",
    ]);
    const applied = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await flag(idOf(8))).toMatchObject({ deleted: false });
    expect(await flag(ARCHIVED)).toMatchObject({ archived: true, name: "Retired experiment" });
    expect((await cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
  });
});

describe("apply --base REF --changed-only, feature flags", () => {
  it("an unrelated merge never turns a flag back on that someone switched off in the UI; a full apply does", async () => {
    await setUp();
    // An incident: Bob switches flag 50 off in the UI.
    expect((await h.api("PATCH", `${FLAGS}/${idOf(50)}/`, { active: false }, { key: BOB_KEY })).status).toBe(
      200,
    );
    // An unrelated change merges: flag 420's rollout. Its declaration of flag 50 is unchanged.
    h.write("posthog/flags.yaml", flagsYaml({ 420: widen(65) }));
    const scoped = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code, scoped.stdout + scoped.stderr).toBe(0);
    expect(scoped.stdout).toContain("Apply complete: 1 succeeded, 0 failed, 0 skipped.");
    expect(scoped.stdout).toContain(
      "Only the change since main was applied. The other 1000 declarations were neither checked for drift nor reverted: the nightly drift plan reports drift, and a full apply reverts it.",
    );
    expect((await h.requests()).filter(listWalk)).toEqual([]);
    expect(await flag(idOf(50))).toMatchObject({ active: false });
    expect((await flag(idOf(420))).filters.groups[0].rollout_percentage).toBe(65);

    // The scheduled drift plan shows it; a full apply reverts it on purpose.
    const drift = await cli(["plan", "--base", "main", "--detailed-exitcode", "posthog"]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`~ feature flag "${key(50)}"`);
    expect(drift.stdout).toContain("Plan: 1 to update.");
    const full = await cli(["apply", "--auto-approve", "posthog"]);
    expect(full.code, full.stdout + full.stderr).toBe(0);
    expect(await flag(idOf(50))).toMatchObject({ active: true });
  });

  it("a saved change-scoped plan of a flag change applies exactly, reading again only what it read", async () => {
    await setUp();
    h.write("posthog/flags.yaml", flagsYaml({ 420: widen(65) }));
    const plan = await cli(["plan", "--base", "main", "--changed-only", "--out", "saved.json", "posthog"]);
    expect(plan.code, plan.stderr).toBe(0);
    const read = (await h.requests()).filter(api).map(shown);
    await h.clearRequests();
    const applied = await cli(["apply", "--auto-approve", "--plan", "saved.json"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain("This plan covers only the change since main: 1 of 1001 declarations");
    expect(applied.stdout).toContain("Apply complete: 1 succeeded, 0 failed, 0 skipped.");
    const requests = (await h.requests()).filter(api);
    expect(requests.filter((r) => r.method === "GET").map(shown)).toEqual(read);
    expect(requests.filter((r) => r.method !== "GET").map(shown)).toEqual([`PATCH ${FLAGS}/${idOf(420)}/`]);
    expect((await flag(idOf(420))).filters.groups[0].rollout_percentage).toBe(65);
  });

  it("a saved change-scoped plan whose flag changed since is refused, naming it and who changed it", async () => {
    await setUp();
    h.write("posthog/flags.yaml", flagsYaml({ 420: widen(65) }));
    expect(
      (await cli(["plan", "--base", "main", "--changed-only", "--out", "saved.json", "posthog"])).code,
    ).toBe(0);
    const edit = { name: "Edited meanwhile" };
    expect((await h.api("PATCH", `${FLAGS}/${idOf(420)}/`, edit, { key: BOB_KEY })).status).toBe(200);
    await h.clearRequests();
    const applied = await cli(["apply", "--auto-approve", "--plan", "saved.json"]);
    expect(applied.code).toBe(1);
    // Who changed it (the flag's last_modified_by) and when: the reviewer's next question.
    expect(applied.stderr).toMatch(
      new RegExp(
        `the live state changed since the plan was made: feature flag "${key(420)}" \\(project 12345, changed by Bob <bob@example\\.com> at 20\\d\\d-[\\d-]+T[\\d:.]+Z\\); nothing was applied`,
      ),
    );
    expect((await h.requests()).filter((r) => api(r) && r.method !== "GET")).toEqual([]);
    expect((await flag(idOf(420))).filters.groups[0].rollout_percentage).toBe(20);
  });
});
