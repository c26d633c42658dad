/**
 * Builders for plans, so renderer tests do not depend on the planner. `buildPlan` derives the summary
 * and fingerprints the way the planner's contract says it must.
 */
import { createPatch } from "diff";
import { ACTION_KINDS, DESTRUCTIVE_ACTIONS, KINDS } from "../../src/kinds/index.js";
import type { Action, ActionKind, ObjectRef, Plan, PlanNote } from "../../src/plan/types.js";
import { objectKey, PLAN_FORMAT_VERSION } from "../../src/plan/types.js";
import { vocabulary } from "../../src/render/kinds.js";

/** The built-in kinds' words, as the CLI renders with them. */
export const VOCAB = vocabulary(KINDS);

export const CREATED_AT = "2026-11-21T06:00:00.000Z";

export function dashboard(name: string, over: Partial<ObjectRef> = {}): ObjectRef {
  return { kind: "dashboard", project: 12345, name, ...over };
}

export function batchExport(name: string, over: Partial<ObjectRef> = {}): ObjectRef {
  return { kind: "batch_export", project: 12345, name, ...over };
}

export function featureFlag(key: string, over: Partial<ObjectRef> = {}): ObjectRef {
  return { kind: "feature_flag", project: 12345, name: key, ...over };
}

export function at(file: string, line: number, column = 3): { source: ObjectRef["source"] } {
  return { source: { file, line, column } };
}

export function act(action: ActionKind, object: ObjectRef, over: Partial<Action> = {}): Action {
  return { action, object, changes: [], destructive: DESTRUCTIVE_ACTIONS.has(action), warnings: [], ...over };
}

export function buildPlan(actions: Action[], notes: PlanNote[] = [], projects?: number[]): Plan {
  const counts: Partial<Record<ActionKind, number>> = {};
  for (const a of actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
  const fingerprints: Record<string, string> = {};
  for (const a of actions)
    fingerprints[objectKey(a.object)] = a.before === undefined ? "absent" : "sha256:0f1e";
  return {
    format_version: PLAN_FORMAT_VERSION,
    created_at: CREATED_AT,
    projects: projects ?? [...new Set(actions.map((a) => a.object.project))].sort((a, b) => a - b),
    actions,
    notes,
    fingerprints,
    summary: { counts, total: actions.length, destructive: actions.some((a) => a.destructive) },
  };
}

export function emptyPlan(): Plan {
  return buildPlan([], [], [12345]);
}

export const SECRET_VARIABLE = "ZQX_SEEDED_S3_SECRET_ACCESS_KEY";
const SECRET = { $secret: `\${${SECRET_VARIABLE}}`, variables: [SECRET_VARIABLE] };

const KPI_BEFORE = "Weekly KPIs for the leadership meeting.\nOwner: growth team.\nRefreshed every Monday.\n";
const KPI_AFTER =
  "Weekly KPIs for the leadership meeting.\nOwner: product analytics.\nRefreshed every Monday.\n";
const HOGQL_BEFORE = "SELECT event, timestamp\nFROM events\nWHERE event != '$feature_flag_called'\n";
const HOGQL_AFTER =
  "SELECT event, timestamp, distinct_id\nFROM events\nWHERE event != '$feature_flag_called'\n";

/** Every action kind, two projects, a long-text diff, secret changes, warnings and notes. */
export function mixedPlan(): Plan {
  const kpis = dashboard("Weekly KPIs", { id: 42, ...at("dashboards/kpis.yaml", 4) });
  const deck = dashboard("Board deck", { id: 60, ...at("dashboards/board.yaml", 2) });
  const churn = dashboard("Churn", { id: 51, ...at("dashboards/churn.yaml", 2) });
  const s3 = batchExport("Events to S3", at("exports/s3.yaml", 3));
  const snowflake = batchExport("Nightly Snowflake", {
    id: "018f2c3e-0000-7000-8000-00000000000a",
    ...at("exports/snowflake.yaml", 3),
  });
  const bigquery = batchExport("Hourly BigQuery", {
    id: "018f2c3e-0000-7000-8000-00000000000b",
    ...at("exports/bq.yaml", 3),
  });
  const legacy = batchExport("Legacy S3", {
    id: "018f2c3e-0000-7000-8000-00000000000c",
    ...at("exports/legacy.yaml", 3),
  });
  const postgres = batchExport("Old Postgres", { id: "018f2c3e-0000-7000-8000-00000000000d" });
  const uuidAdd = "0190f3a2-7c1d-7000-8000-000000000001";
  const uuidRemove = "0190f3a2-7c1d-7000-8000-000000000002";
  return buildPlan(
    [
      act("create", dashboard("Revenue", at("dashboards/revenue.yaml", 2)), {
        after: { name: "Revenue", description: "Money in, money out.", pinned: true, tags: ["finance"] },
      }),
      act("restore", churn, { before: { deleted: true }, after: { deleted: false } }),
      act("update", churn, {
        before: { pinned: false },
        after: { pinned: true },
        changes: [{ path: "pinned", before: false, after: true }],
      }),
      act("update", kpis, {
        before: { description: KPI_BEFORE, tags: ["kpi"] },
        after: { description: KPI_AFTER, tags: ["kpi", "weekly"] },
        changes: [
          {
            path: "description",
            before: KPI_BEFORE,
            after: KPI_AFTER,
            diff: createPatch("description", KPI_BEFORE, KPI_AFTER),
          },
          { path: "tags", before: ["kpi"], after: ["kpi", "weekly"] },
        ],
      }),
      act("remove_collaborator", kpis, { before: { user_uuid: uuidRemove, level: 37 } }),
      act("add_collaborator", kpis, { after: { user_uuid: uuidAdd, level: 37 } }),
      act("enable_sharing", kpis, { before: { enabled: false }, after: { enabled: true } }),
      act("disable_sharing", deck, {
        before: { enabled: true },
        after: { enabled: false },
        warnings: ["Anyone holding the current share link loses access."],
      }),
      act("unarchive", featureFlag("holiday-promo", { id: 6, ...at("flags.yaml", 30) }), {
        before: { archived: true },
        after: { archived: false },
      }),
      act("update", featureFlag("new-checkout", { id: 2, ...at("flags.yaml", 12) }), {
        before: {
          filters: {
            groups: [{ rollout_percentage: 100 }, { rollout_percentage: 20 }],
            multivariate: {
              variants: [
                { key: "control", rollout_percentage: 50 },
                { key: "test", rollout_percentage: 50 },
              ],
            },
          },
        },
        after: {
          filters: {
            groups: [{ rollout_percentage: 100 }, { rollout_percentage: 60 }],
            multivariate: {
              variants: [
                { key: "control", rollout_percentage: 70 },
                { key: "test", rollout_percentage: 30 },
              ],
            },
          },
        },
        requires: [{ kind: "feature_flag", name: "checkout-v1", id: 1 }],
        preconditions: {
          version: 3,
          original_flag: {
            filters: {
              groups: [{ rollout_percentage: 100 }, { rollout_percentage: 20 }],
              multivariate: {
                variants: [
                  { key: "control", rollout_percentage: 50 },
                  { key: "test", rollout_percentage: 50 },
                ],
              },
              payloads: {},
            },
          },
        },
        changes: [
          {
            path: "filters.groups",
            before: [{ rollout_percentage: 100 }, { rollout_percentage: 20 }],
            after: [{ rollout_percentage: 100 }, { rollout_percentage: 60 }],
            says: ["group 2: rollout 20% → 60%"],
          },
          {
            path: "filters.multivariate",
            before: {
              variants: [
                { key: "control", rollout_percentage: 50 },
                { key: "test", rollout_percentage: 50 },
              ],
            },
            after: {
              variants: [
                { key: "control", rollout_percentage: 70 },
                { key: "test", rollout_percentage: 30 },
              ],
            },
            says: ["variant control: 50% → 70%", "variant test: 50% → 30%"],
          },
        ],
      }),
      act("update", featureFlag("checkout-v1", { id: 1, ...at("flags.yaml", 3) }), {
        before: { active: true },
        after: { active: false },
        preconditions: { version: 1, original_flag: { active: true } },
        changes: [{ path: "active", before: true, after: false, says: ["turns the flag off for everyone"] }],
        destructive: true,
        guard: "it was evaluated a day ago (live in production): turning it off affects its users",
      }),
      act("archive", featureFlag("checkout-v1", { id: 1, ...at("flags.yaml", 3) }), {
        before: { archived: false },
        after: { archived: true },
        destructive: true,
        guard: "it was evaluated a day ago (live in production): archiving it affects its users",
      }),
      act("create", s3, {
        after: {
          name: "Events to S3",
          model: "events",
          interval: "hour",
          destination: { type: "S3", config: { bucket_name: "acme-events", aws_secret_access_key: SECRET } },
        },
      }),
      act("update", snowflake, {
        before: { hogql_query: HOGQL_BEFORE },
        after: { hogql_query: HOGQL_AFTER },
        sends: { destination: { type: "Snowflake", config: { password: SECRET } } },
        changes: [
          {
            path: "hogql_query",
            before: HOGQL_BEFORE,
            after: HOGQL_AFTER,
            diff: createPatch("hogql_query", HOGQL_BEFORE, HOGQL_AFTER),
          },
          { path: "destination.config.password", after: SECRET, secret: true },
        ],
      }),
      act("pause", legacy, { before: { paused: false }, after: { paused: true } }),
      act("unpause", bigquery, {
        before: { paused: true },
        after: { paused: false },
        sends: { backfill: true },
        warnings: ["Paused since 2026-11-14T00:00:00Z: the gap will be backfilled."],
      }),
      act("soft_delete", dashboard("Old experiments", { id: 7 }), {
        before: { name: "Old experiments", pinned: false },
      }),
      act("delete", postgres, {
        before: { name: "Old Postgres", model: "events" },
        warnings: ["Its run history is deleted with it."],
      }),
      act("create", dashboard("Staging smoke", { project: 12346, ...at("staging/dashboards.yaml", 3) }), {
        after: { name: "Staging smoke" },
      }),
    ],
    [
      {
        severity: "warning",
        message: "The organization has no tagging feature: tags are kept out of the plan.",
        object: dashboard("Staging smoke", { project: 12346 }),
      },
      { severity: "note", message: "2 dashboards matched `ignore:` globs and are left alone." },
    ],
    [12345, 12346],
  );
}

/** A plan of `n` updates to distinct dashboards, every `destructiveEvery`-th one a soft delete instead. */
export function bigPlan(n: number, destructiveEvery = 20): Plan {
  const actions: Action[] = [];
  for (let i = 0; i < n; i++) {
    const object = dashboard(`Dashboard ${String(i).padStart(4, "0")}`, {
      id: 1000 + i,
      ...at(`dashboards/d${i}.yaml`, 2),
    });
    if (i % destructiveEvery === destructiveEvery - 1) {
      actions.push(act("soft_delete", object, { before: { name: object.name } }));
    } else {
      actions.push(
        act("update", object, {
          before: { description: "old text" },
          after: { description: `new text for dashboard ${i}` },
          changes: [{ path: "description", before: "old text", after: `new text for dashboard ${i}` }],
        }),
      );
    }
  }
  return buildPlan(actions);
}

export function insight(name: string, over: Partial<ObjectRef> = {}): ObjectRef {
  return { kind: "insight", project: 12345, name, ...over };
}

const QUERY_BEFORE = {
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "signed up" }], interval: "day" },
};
const QUERY_AFTER = {
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "signed up" }], interval: "week" },
};

/**
 * Dashboard content: insights created, changed (a query with its diff) and soft-deleted, and a
 * dashboard's tiles added, removed and moved, named by insight or text, never by tile id.
 */
export function contentPlan(): Plan {
  const kpis = dashboard("Weekly KPIs", { id: 42, ...at("dashboards/kpis.yaml", 4) });
  const signups = insight("Weekly signups", { id: 812, ...at("insights/growth.yaml", 3) });
  const funnel = insight("Checkout funnel", at("insights/growth.yaml", 12));
  const old = insight("Old retention", { id: 90 });
  return buildPlan([
    act("remove_tile", kpis, { before: { text: "## Old notes\nTo be removed." } }),
    act("add_tile", kpis, {
      after: { insight: "Checkout funnel", layout: { x: 0, y: 5, w: 6, h: 5 } },
      // Created in this apply: no id yet.
      requires: [{ kind: "insight", name: "Checkout funnel" }],
    }),
    act("add_tile", kpis, { after: { text: "## Notes\nRevenue comes from Stripe." } }),
    act("update_tile", kpis, {
      before: { insight: "Weekly signups", layout: { x: 0, y: 0, w: 6, h: 5 } },
      after: { insight: "Weekly signups", layout: { x: 6, y: 0, w: 6, h: 5 } },
      preconditions: { insight_id: 812 },
      changes: [{ path: "layout", before: { x: 0, y: 0, w: 6, h: 5 }, after: { x: 6, y: 0, w: 6, h: 5 } }],
    }),
    act("create", funnel, {
      after: { name: "Checkout funnel", query: QUERY_AFTER },
      changes: [
        { path: "name", after: "Checkout funnel" },
        { path: "query", after: QUERY_AFTER },
      ],
    }),
    act("update", signups, {
      before: { query: QUERY_BEFORE },
      after: { query: QUERY_AFTER },
      changes: [
        {
          path: "query",
          before: QUERY_BEFORE,
          after: QUERY_AFTER,
          diff: createPatch("query", "source:\n  interval: day\n", "source:\n  interval: week\n"),
        },
      ],
    }),
    act("soft_delete", old, { before: { id: 90, name: "Old retention" } }),
  ]);
}

/** Every verb of the registry in one plan: the mixed plan and the content plan together. */
export function everyVerbPlan(): Plan {
  return buildPlan([...mixedPlan().actions, ...contentPlan().actions]);
}

/** Sanity for the fixtures themselves: the mixed plan really holds every action kind. */
export function kindsIn(plan: Plan): ActionKind[] {
  return ACTION_KINDS.filter((k) => plan.actions.some((a) => a.action === k));
}

export const ANA = "0190f3a2-7c1d-7000-8000-00000000a0a0";
export const BEN = "0190f3a2-7c1d-7000-8000-00000000b0b0";
export const STRANGER = "0190f3a2-7c1d-7000-8000-00000000c0c0";

/**
 * Collaborators as people read them: one known by name and email, one by email only, one unknown (its
 * UUID), and the restriction level in words.
 */
export function collaboratorPlan(): Plan {
  const ops = dashboard("Ops review", { id: 31, ...at("dashboards/ops.yaml", 3) });
  return {
    ...buildPlan([
      act("update", ops, {
        before: { restriction_level: 21 },
        after: { restriction_level: 37 },
        changes: [{ path: "restriction_level", before: 21, after: 37 }],
      }),
      act("remove_collaborator", ops, { before: { user_uuid: BEN, level: 37 } }),
      act("add_collaborator", ops, { after: { user_uuid: ANA, level: 37 } }),
      act("add_collaborator", ops, { after: { user_uuid: STRANGER, level: 37 } }),
      act("create", dashboard("Board pack", at("dashboards/board.yaml", 2)), {
        after: { name: "Board pack", restriction_level: 37 },
      }),
    ]),
    people: {
      [ANA]: { name: "Ana Lima", email: "ana@acme.com" },
      [BEN]: { email: "ben_o@acme.com" },
    },
  };
}

/**
 * A plan made with --base: a dashboard edited in the UI (the service does not say when), an export
 * paused in the UI (it says when, and who), a dashboard created by hand and pruned, and the pull
 * request's own change, which is not drift.
 */
export function driftPlan(): Plan {
  const kpis = dashboard("Weekly KPIs", { id: 42, ...at("dashboards/kpis.yaml", 4) });
  const snowflake = batchExport("Nightly Snowflake", {
    id: "018f2c3e-0000-7000-8000-00000000000a",
    ...at("exports/snowflake.yaml", 3),
  });
  return {
    ...buildPlan([
      act("update", dashboard("Revenue", { id: 3, ...at("dashboards/revenue.yaml", 2) }), {
        before: { pinned: false },
        after: { pinned: true },
        changes: [{ path: "pinned", before: false, after: true }],
      }),
      act("update", kpis, {
        before: { description: "Edited in the UI" },
        after: { description: "Growth team weekly review." },
        changes: [{ path: "description", before: "Edited in the UI", after: "Growth team weekly review." }],
        drift: true,
      }),
      act("unpause", snowflake, {
        before: { paused: true },
        after: { paused: false },
        drift: true,
        modified: { at: "2026-11-20T22:14:03.120Z", by: ANA },
      }),
      act("soft_delete", dashboard("Scratch <b>board</b>", { id: 77 }), {
        before: { name: "Scratch <b>board</b>", pinned: false },
        drift: true,
      }),
    ]),
    base: "origin/main",
    people: { [ANA]: { name: "Ana Lima", email: "ana@acme.com" } },
  };
}

/** The same dashboard created in two projects, and an update in the second: summaries name projects. */
export function twoProjectPlan(): Plan {
  return buildPlan([
    act("create", dashboard("Product usage", at("production/dashboards.yaml", 23)), {
      after: { name: "Product usage", restriction_level: 21 },
    }),
    act("create", dashboard("Product usage", { project: 12346, ...at("staging/dashboards.yaml", 12) }), {
      after: { name: "Product usage", restriction_level: 21 },
    }),
    act(
      "soft_delete",
      dashboard("Old funnel", { project: 12346, id: 9, ...at("staging/dashboards.yaml", 30) }),
      {
        before: { name: "Old funnel" },
      },
    ),
  ]);
}

/** A plan narrowed with --target: partial. */
export function partialPlan(): Plan {
  return {
    ...buildPlan([
      act("update", dashboard("Weekly KPIs", { id: 42, ...at("dashboards/kpis.yaml", 4) }), {
        before: { pinned: false },
        after: { pinned: true },
        changes: [{ path: "pinned", before: false, after: true }],
      }),
    ]),
    targets: ["dashboard/Weekly*", "dashboard/#42"],
  };
}
