/**
 * One seeded world for a fault run: the live objects to seed, the files that declare part of them, and
 * the fault mix. Same seed, same world; the random choices cover every plan action the fault campaign
 * exercises (create, update, restore-free soft delete, collaborators, sharing, pause; insights and a
 * dashboard's tiles showing them, created in the same apply; feature flags depending on flags created
 * in the same apply; actions, cohorts using them and each other by name, and a flag targeting a
 * cohort, created in the same apply) plus objects of every kind no file declares, which must come out
 * of every run untouched.
 */
import type { EmulatorState } from "../../bench/control.js";

export const PROJECT = 12345;
export const OTHER_PROJECT = 12346;
const USERS = [
  { id: 2, uuid: "0190f1d2-7b4e-7c3a-9d1f-000000000002" },
  { id: 3, uuid: "0190f1d2-7b4e-7c3a-9d1f-000000000003" },
];
const STAMP = "2026-01-01T00:00:00.000Z";

/** A small deterministic PRNG (xorshift32 after a murmur3 finaliser, so nearby seeds diverge at once). */
export function prng(seed: number): { int: (n: number) => number; chance: (p: number) => boolean } {
  let x = seed >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  x = (x ^ (x >>> 16)) >>> 0 || 0x9e3779b9;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  return { int: (n) => Math.floor(next() * n), chance: (p) => next() < p };
}

export interface World {
  objects: Pick<EmulatorState, "dashboards" | "batch_exports" | "collaborators" | "sharing"> & {
    insights: Array<Record<string, unknown>>;
    feature_flags: Array<Record<string, unknown>>;
    cohorts: Array<Record<string, unknown>>;
    actions: Array<Record<string, unknown>>;
  };
  /** File name → YAML text. */
  files: Record<string, string>;
  /** Live ids no file declares: they must be identical after the run. */
  undeclared: {
    dashboards: number[];
    batchExports: string[];
    insights: number[];
    flags: number[];
    cohorts: number[];
    actions: number[];
  };
  faults: Record<string, unknown>;
}

/** A trends query counting one event, as a file writes it and the service stores it. */
const trends = (event: string) => ({
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event }] },
});

export function makeWorld(seed: number): World {
  const r = prng(seed);
  const dashboards: EmulatorState["dashboards"] = [];
  const collaborators: EmulatorState["collaborators"] = [];
  const batchExports: EmulatorState["batch_exports"] = [];
  const yamlDashboards: string[] = [];
  let id = 100;
  const addDashboard = (team: number, name: string, extra: Record<string, unknown> = {}) => {
    id++;
    dashboards.push({
      id,
      team_id: team,
      name,
      description: `live ${name}`,
      tags: [],
      restriction_level: 21,
      created_by: 1,
      ...extra,
    });
    return id;
  };

  // Insights: some live as declared, some stale, some absent (created by the apply, before the tiles
  // of the first dashboard that shows them).
  const insights: World["objects"]["insights"] = [];
  const yamlInsights: string[] = [];
  let insightId = 500;
  const charts = Array.from({ length: 2 + r.int(2) }, (_, i) => `Chart ${seed}-${i}`);
  charts.forEach((name, i) => {
    yamlInsights.push(
      `  - name: ${name}`,
      `    description: wanted ${i}`,
      "    query:",
      "      kind: InsightVizNode",
      "      source:",
      "        kind: TrendsQuery",
      `        series: [{kind: EventsNode, event: e${i}}]`,
    );
    const live = r.int(3); // 0 absent, 1 as declared, 2 stale description
    if (live === 0) return;
    insights.push({
      id: insightId++,
      team_id: PROJECT,
      name,
      description: live === 1 ? `wanted ${i}` : `stale ${i}`,
      query: trends(`e${i}`),
      saved: true,
    });
  });
  const looseInsight = insightId++;
  insights.push({
    id: looseInsight,
    team_id: PROJECT,
    name: `Loose chart ${seed}`,
    query: trends("x"),
    saved: true,
  });

  const count = 3 + r.int(5);
  for (let i = 0; i < count; i++) {
    const name = `Managed ${seed}-${i}`;
    const withCollaborators = r.chance(0.4);
    const lines = [`  - name: ${name}`, `    description: wanted ${i}`];
    if (i === 0) {
      // The whole set of tiles: the declared insights, by name, two to a row.
      lines.push("    tiles:");
      charts.forEach((chart, c) => {
        lines.push(
          `      - insight: ${chart}`,
          `        layout: {x: ${(c % 2) * 6}, y: ${Math.floor(c / 2) * 5}, w: 6, h: 5}`,
        );
      });
    }
    if (withCollaborators) {
      lines.push("    restriction_level: only_collaborators", "    collaborators:");
      lines.push(`      - user_uuid: ${USERS[0]?.uuid}`, "        level: can_edit");
      // The service only accepts can_edit (37) for explicit collaborators.
      if (r.chance(0.5)) lines.push(`      - user_uuid: ${USERS[1]?.uuid}`, "        level: can_edit");
    }
    if (r.chance(0.25)) lines.push(`    sharing: {enabled: ${r.chance(0.7)}}`);
    yamlDashboards.push(...lines);
    const live = r.int(3); // 0 absent, 1 as declared (description), 2 different
    if (live === 0) continue;
    const dashboardId = addDashboard(PROJECT, name, {
      description: live === 1 ? `wanted ${i}` : `stale ${i}`,
      restriction_level: r.chance(0.5) ? 37 : 21,
    });
    for (const user of USERS) {
      if (r.chance(0.4)) {
        collaborators.push({
          id: `c${seed}-${dashboardId}-${user.id}`,
          dashboard_id: dashboardId,
          user: user.id,
          level: r.chance(0.5) ? 37 : 21,
          added_at: STAMP,
          updated_at: STAMP,
        });
      }
    }
  }
  if (r.chance(0.5)) {
    const name = `Retired ${seed}`;
    yamlDashboards.push(`  - name: ${name}`, "    deleted: true");
    addDashboard(PROJECT, name);
  }

  const yamlExports: string[] = [];
  const exportCount = 1 + r.int(3);
  for (let i = 0; i < exportCount; i++) {
    const name = `export-${seed}-${i}`;
    const paused = r.chance(0.3);
    yamlExports.push(
      `  - name: ${name}`,
      "    model: events",
      "    interval: hour",
      `    paused: ${paused}`,
      "    destination:",
      "      type: AwsS3",
      "      integration: 1",
      "      config:",
      "        bucket_name: acme",
      "        region: us-east-1",
      "        prefix: p/",
    );
    const live = r.int(3);
    if (live === 0) continue;
    batchExports.push({
      id: `00000000-0000-4000-8000-${String(seed % 1e6).padStart(6, "0")}${String(i).padStart(6, "0")}`,
      team_id: PROJECT,
      name,
      model: "events",
      interval: live === 1 ? "hour" : "day",
      paused: live === 1 ? paused : !paused,
      destination: {
        type: "AwsS3",
        integration: 1,
        config: { bucket_name: "acme", region: "us-east-1", prefix: "p/" },
      },
    });
  }

  // Actions, and cohorts naming them and each other by name: a cohort of person properties (which a
  // flag may target), cohorts of people who did an action (some containing the first one). Live ones
  // are as declared (when what they name is live too), or stale; absent ones are created in order.
  const actions: World["objects"]["actions"] = [];
  const yamlActions: string[] = [];
  const liveActions = new Map<string, number>();
  let actionId = 900;
  const actionNames = Array.from({ length: 1 + r.int(3) }, (_, i) => `Act ${seed}-${i}`);
  actionNames.forEach((name, i) => {
    yamlActions.push(`  - name: ${name}`, `    description: wanted ${i}`, `    steps: [{event: act-${i}}]`);
    const live = r.int(3); // 0 absent, 1 as declared, 2 stale description
    if (live === 0) return;
    liveActions.set(name, actionId);
    actions.push({
      id: actionId++,
      team_id: PROJECT,
      name,
      description: live === 1 ? `wanted ${i}` : `stale ${i}`,
      steps: [{ event: `act-${i}`, url_matching: "contains" }],
      created_at: STAMP,
      created_by: 1,
    });
  });
  const looseAction = actionId++;
  actions.push({
    id: looseAction,
    team_id: PROJECT,
    name: `Loose act ${seed}`,
    steps: [],
    created_at: STAMP,
    created_by: 1,
  });

  const cohorts: World["objects"]["cohorts"] = [];
  const yamlCohorts: string[] = [];
  let cohortId = 950;
  const persons = `Persons ${seed}`;
  const personLeaf = { type: "person", key: "email", operator: "icontains", value: `@${seed}.example` };
  yamlCohorts.push(
    `  - name: ${persons}`,
    `    filters: {properties: {type: OR, values: [{type: person, key: email, operator: icontains, value: "@${seed}.example"}]}}`,
  );
  const personsLive = r.int(3);
  const personsId = personsLive === 0 ? undefined : cohortId++;
  if (personsId !== undefined) {
    cohorts.push({
      id: personsId,
      team_id: PROJECT,
      name: persons,
      filters: {
        properties: {
          type: "OR",
          values: [personsLive === 1 ? personLeaf : { ...personLeaf, value: "@stale" }],
        },
      },
      created_at: STAMP,
      created_by: 1,
    });
  }
  actionNames.forEach((action, i) => {
    if (!r.chance(0.7)) return;
    const name = `Doers ${seed}-${i}`;
    const withPersons = r.chance(0.5);
    yamlCohorts.push(
      `  - name: ${name}`,
      "    filters:",
      "      properties:",
      "        type: AND",
      "        values:",
      `          - {type: behavioral, value: performed_event, event_type: actions, action: ${action}, time_value: 30, time_interval: day}`,
      ...(withPersons ? [`          - {type: cohort, cohort: ${persons}}`] : []),
    );
    const live = r.int(3);
    if (live === 0) return;
    const actionLive = liveActions.get(action);
    const same = live === 1 && actionLive !== undefined && (!withPersons || personsId !== undefined);
    const values: unknown[] = same
      ? [
          {
            type: "behavioral",
            key: actionLive,
            value: "performed_event",
            event_type: "actions",
            time_value: 30,
            time_interval: "day",
          },
          ...(withPersons ? [{ type: "cohort", key: "id", value: personsId }] : []),
        ]
      : [{ ...personLeaf, value: "@stale" }];
    cohorts.push({
      id: cohortId++,
      team_id: PROJECT,
      name,
      filters: { properties: { type: "AND", values } },
      created_at: STAMP,
      created_by: 1,
    });
  });
  const looseCohort = cohortId++;
  cohorts.push({
    id: looseCohort,
    team_id: PROJECT,
    name: `Loose cohort ${seed}`,
    filters: { properties: { type: "AND", values: [personLeaf] } },
    created_at: STAMP,
    created_by: 1,
  });
  const targets = r.chance(0.5);

  // Feature flags: each may depend on the one before it (created in the same apply when it is new);
  // live ones are as declared, or roll out to another share without the dependency.
  const flags: World["objects"]["feature_flags"] = [];
  const yamlFlags: string[] = [];
  let flagId = 700;
  const flagCount = 2 + r.int(3);
  for (let i = 0; i < flagCount; i++) {
    const key = `flag-${seed}-${i}`;
    const dependsOn = i > 0 && r.chance(0.6) ? `flag-${seed}-${i - 1}` : undefined;
    const properties = [
      ...(dependsOn ? [`{type: flag, key: ${dependsOn}, operator: flag_evaluates_to, value: true}`] : []),
      // The first flag may target the cohort of person properties (new or live) by name.
      ...(i === 0 && targets ? [`{type: cohort, cohort: ${persons}, operator: in}`] : []),
    ];
    const condition = properties.length > 0 ? `, properties: [${properties.join(", ")}]` : "";
    yamlFlags.push(
      `  - key: ${key}`,
      `    name: wanted ${i}`,
      "    active: true",
      "    filters:",
      `      groups: [{rollout_percentage: ${10 * (i + 1)}${condition}}]`,
    );
    const live = r.int(3); // 0 absent, 1 as declared (when it depends on nothing), 2 another rollout
    if (live === 0) continue;
    const same = live === 1 && properties.length === 0;
    flags.push({
      id: flagId++,
      team_id: PROJECT,
      key,
      name: `wanted ${i}`,
      active: true,
      filters: { groups: [{ properties: [], rollout_percentage: same ? 10 * (i + 1) : 5 }] },
    });
  }
  const looseFlag = flagId++;
  flags.push({
    id: looseFlag,
    team_id: PROJECT,
    key: `loose-flag-${seed}`,
    name: "keep",
    active: true,
    filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
  });

  // Objects outside every file: two dashboards of the managed project, one of a project no file names,
  // and one export; `apply` without --prune must leave all of them exactly as they are.
  const undeclaredDashboards = [
    addDashboard(PROJECT, `Hand-made ${seed}-a`, { description: "keep" }),
    addDashboard(PROJECT, `Hand-made ${seed}-b`, { description: "keep", restriction_level: 37 }),
    addDashboard(OTHER_PROJECT, `Managed ${seed}-0`, { description: "same name, other project" }),
  ];
  const strayExport = `00000000-0000-4000-8000-ffffff${String(seed % 1e6).padStart(6, "0")}`;
  batchExports.push({
    id: strayExport,
    team_id: PROJECT,
    name: `hand-made-export-${seed}`,
    model: "events",
    interval: "day",
    paused: true,
    destination: {
      type: "AwsS3",
      integration: 1,
      config: { bucket_name: "other", region: "eu-west-1", prefix: "x/" },
    },
  });

  return {
    objects: {
      dashboards,
      collaborators,
      batch_exports: batchExports,
      sharing: [],
      insights,
      feature_flags: flags,
      cohorts,
      actions,
    },
    files: {
      "dashboards.yaml": `project: ${PROJECT}\ndashboards:\n${yamlDashboards.join("\n")}\n`,
      "insights.yaml": `project: ${PROJECT}\ninsights:\n${yamlInsights.join("\n")}\n`,
      "flags.yaml": `project: ${PROJECT}\nfeature_flags:\n${yamlFlags.join("\n")}\n`,
      "exports.yaml": `project: ${PROJECT}\nbatch_exports:\n${yamlExports.join("\n")}\n`,
      "cohorts.yaml": `project: ${PROJECT}\ncohorts:\n${yamlCohorts.join("\n")}\nactions:\n${yamlActions.join("\n")}\n`,
    },
    undeclared: {
      dashboards: undeclaredDashboards,
      batchExports: [strayExport],
      insights: [looseInsight],
      flags: [looseFlag],
      cohorts: [looseCohort],
      actions: [looseAction],
    },
    faults: faultMix(seed, r),
  };
}

/** 502/503s at a random rate, 429s with a short Retry-After, lost responses, resets and a latency level. */
function faultMix(seed: number, r: ReturnType<typeof prng>): Record<string, unknown> {
  const candidates: Array<Record<string, unknown>> = [
    { method: "POST", path: "/dashboards/?$", lose_response: true, times: 1 + r.int(2) },
    { method: "PATCH", path: "/dashboards/\\d+/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/collaborators/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/batch_exports/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/(pause|unpause)/?$", lose_response: true, times: 1 },
    { method: "DELETE", path: "/batch_exports/", lose_response: true, times: 1 },
    { method: "DELETE", path: "/collaborators/", lose_response: true, times: 1 },
    { method: "PATCH", path: "/sharing/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/insights/?$", lose_response: true, times: 1 },
    { method: "PATCH", path: "/insights/\\d+/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/feature_flags/?$", lose_response: true, times: 1 + r.int(2) },
    { method: "PATCH", path: "/feature_flags/\\d+/?$", lose_response: true, times: 1 },
    { method: "GET", path: "/feature_flags", reset: true, times: 1 },
    { method: "POST", path: "/cohorts/?$", lose_response: true, times: 1 + r.int(2) },
    { method: "PATCH", path: "/cohorts/\\d+/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/actions/?$", lose_response: true, times: 1 },
    { method: "PATCH", path: "/actions/\\d+/?$", lose_response: true, times: 1 },
    { method: "GET", path: "/cohorts", reset: true, times: 1 },
    { path: ".*", status: 429, retry_after: r.int(2), times: 1 + r.int(3) },
    { method: "GET", path: "/dashboards", reset: true, times: 1 },
    { path: ".*", status: 502, times: 1 + r.int(2) },
  ];
  const rules = candidates.filter(() => r.chance(0.45));
  for (let i = rules.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [rules[i], rules[j]] = [rules[j] as Record<string, unknown>, rules[i] as Record<string, unknown>];
  }
  return {
    // A quarter of the runs are slow throughout (60-150 ms a request); spikes come from the proxy.
    latency_ms: r.chance(0.25) ? 60 + r.int(90) : r.int(15),
    error_rate: r.int(25) / 100,
    error_status: r.chance(0.5) ? 502 : 503,
    seed,
    rules,
  };
}
