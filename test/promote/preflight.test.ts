/**
 * SPEC §9's warnings, offline: what shared declarations need of a project (each kind's `needs`: group
 * type indexes anywhere in an insight's query, a flag's aggregation and cohorts, a batch export's
 * integration, a dashboard's collaborators), and the warnings where two projects disagree. The static
 * cohorts come from any kind's live state through its `staticObjects` hook: the flags' read today, a
 * cohort kind's own objects (a test-only one here) tomorrow.
 */
import { describe, expect, it } from "vitest";
import { staticObjectsOf } from "../../src/commands/environment-facts.js";
import { loadConfig } from "../../src/config/index.js";
import { KINDS } from "../../src/kinds/index.js";
import type { LiveKind } from "../../src/plan/types.js";
import {
  type EnvironmentFacts,
  integrationKey,
  needsOf,
  objectKey,
  preflightWarnings,
} from "../../src/promote/preflight.js";

const FILES = {
  "envs.yaml": `environments:
  staging: {project: 12346}
  production: {project: 12345, promote_from: staging}
`,
  "shared.yaml": `environments: all
feature_flags:
  - key: by-company
    filters:
      aggregation_group_type_index: 1
      groups:
        - properties: [{type: cohort, cohort: Beta testers, operator: in}]
          rollout_percentage: 20
insights:
  - name: Companies
    query:
      kind: InsightVizNode
      source:
        kind: TrendsQuery
        series: [{kind: EventsNode, event: signed up, math: dau, math_group_type_index: 0}]
        aggregation_group_type_index: 0
dashboards:
  - name: KPIs
    restriction_level: only_collaborators
    collaborators: [{email: bob@acme.com, level: can_edit}]
batch_exports:
  - name: to-s3
    model: events
    interval: hour
    destination:
      type: AwsS3
      integration: {kind: aws-s3, name: Analytics bucket}
      config: {bucket_name: b, region: us-east-1, prefix: p/}
`,
  "overlay.yaml": `overlay: production
dashboards:
  - name: Own board
    restriction_level: only_collaborators
    collaborators: [{email: zed@acme.com, level: can_edit}]
`,
};

async function production() {
  const result = await loadConfig(
    { files: Object.entries(FILES).map(([path, text]) => ({ path, text })) },
    { env: {}, cwd: "/", kinds: KINDS, mode: "plan" },
  );
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const env = result.environments?.list.find((e) => e.name === "production");
  if (env === undefined) throw new Error("no production");
  return env;
}

const facts = (over: Partial<EnvironmentFacts> = {}): EnvironmentFacts => ({
  static: new Set(),
  ...over,
});

describe("what shared declarations need", () => {
  it("is each kind's declared places, in the shared files only", async () => {
    const env = await production();
    const needs = needsOf(env, KINDS);
    expect(needs.map((n) => `${n.owner} ${n.field} ${JSON.stringify(n.need)}`)).toEqual([
      'feature flag "by-company" filters.groups.0.properties.0.cohort {"what":"reference","kind":"cohort","name":"Beta testers"}',
      'dashboard "KPIs" collaborators.0.email {"what":"member","email":"bob@acme.com"}',
      'insight "Companies" query.source.aggregation_group_type_index {"what":"group_type","index":0}',
      'insight "Companies" query.source.series.0.math_group_type_index {"what":"group_type","index":0}',
      'feature flag "by-company" filters.aggregation_group_type_index {"what":"group_type","index":1}',
      'batch export "to-s3" destination.integration {"what":"integration","kind":"aws-s3","name":"Analytics bucket"}',
    ]);
  });
});

describe("the warnings", () => {
  it("name a group type index mapped differently, a static cohort, and an integration or member the destination lacks", async () => {
    const env = await production();
    const needs = needsOf(env, KINDS);
    const staging = facts({
      groupTypes: new Map([
        [0, "company"],
        [1, "workspace"],
      ]),
      static: new Set([objectKey("cohort", "Beta testers")]),
    });
    const prod = facts({
      groupTypes: new Map([[0, "company"]]),
      integrations: new Set([integrationKey("aws-s3", "Other bucket")]),
      members: new Set(["ana@acme.com"]),
    });
    const warnings = preflightWarnings(
      needs,
      { name: "staging", facts: staging },
      { name: "production", facts: prod },
    );
    expect(warnings.map((w) => w.code)).toEqual(["static_cohort", "member", "group_type", "integration"]);
    expect(warnings.map((w) => w.message)).toEqual([
      `feature flag "by-company" targets cohort "Beta testers", which is static in staging: a static cohort's members are a list kept in each project, never copied from staging to production`,
      `dashboard "KPIs" names bob@acme.com (collaborators.0.email), who is not a member of production's organization`,
      `feature flag "by-company" aggregates by group type index 1 (filters.aggregation_group_type_index), which is "workspace" in staging but no group type in production: the same index counts other groups there (group types are made per project)`,
      `batch export "to-s3" uses aws-s3 integration "Analytics bucket", which production does not have: integrations are made in each project's settings (an integration's display name may differ: set it per environment with a variable)`,
    ]);
    // A plan of several environments checks only group types and static cohorts; what was not read
    // (a part without facts) checks nothing.
    const planned = preflightWarnings(
      needs,
      { name: "staging", facts: facts({ static: new Set([objectKey("cohort", "Beta testers")]) }) },
      { name: "production", facts: facts() },
      new Set(["group_type", "static_cohort"]),
    );
    expect(planned.map((w) => w.code)).toEqual(["static_cohort"]);
  });

  it("take static objects from the cohort kind's live state: its static cohorts, not deleted", () => {
    const live = [
      {
        project: 12346,
        kinds: {
          cohort: {
            objects: [
              { id: 1, name: "Imported list", is_static: true },
              { id: 2, name: "Dynamic" },
              { id: 5, name: "Gone", is_static: true, deleted: true },
            ],
          } as LiveKind,
          feature_flag: { objects: [] } as LiveKind,
        },
      },
    ];
    expect([...staticObjectsOf(live)]).toEqual([objectKey("cohort", "Imported list")]);
  });
});
