/**
 * What environments add to the outputs (SPEC §9): the sections of a plan of several environments in
 * each format, and `render --env`'s document, whose comments say where an overlay or a variable set a
 * value, which list an overlay replaced, and what it left out.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/plan/types.js";
import { renderEnvironmentDocument } from "../../src/pull/environment-document.js";
import {
  renderEnvironmentsJson,
  renderEnvironmentsMarkdown,
  renderEnvironmentsText,
} from "../../src/render/environments.js";
import { vocabulary } from "../../src/render/index.js";

const vocab = vocabulary(KINDS);

function plan(actions: Plan["actions"] = []): Plan {
  return {
    format_version: PLAN_FORMAT_VERSION,
    created_at: "2026-11-20T12:00:00.000Z",
    projects: [12345],
    actions,
    notes: [],
    fingerprints: {},
    summary: { counts: {}, total: actions.length, destructive: false },
  };
}

const update: Plan["actions"][number] = {
  action: "update",
  object: {
    kind: "dashboard",
    project: 12345,
    name: "KPIs",
    id: 7,
    source: { file: "shared.yaml", line: 3, column: 5 },
  },
  before: { pinned: false },
  after: { pinned: true },
  changes: [{ path: "pinned", before: false, after: true }],
  destructive: false,
  warnings: [],
  origins: { pinned: [{ file: "overlays/production.yaml", line: 6, column: 13, how: "overlay" }] },
};

const sections = [
  { name: "staging", project: 12346, host: "https://us.posthog.com", plan: { ...plan(), projects: [12346] } },
  { name: "production", project: 12345, host: "https://us.posthog.com", plan: plan([update]), refusal: "no" },
  { name: "eu", project: 777, error: "POSTHOG_API_KEY_EU is not set" },
];

describe("the plan of several environments", () => {
  it("text: a heading and a plan (or why not) per environment, the change's origin, an overview", () => {
    const text = renderEnvironmentsText(sections, { color: false, vocab });
    expect(text).toContain("══ Environment staging · project 12346 · https://us.posthog.com\n\nNo changes.");
    expect(text).toContain("pinned: false → true · from overlays/production.yaml:6");
    expect(text).toContain("! apply will refuse: no");
    expect(text).toContain("══ Environment eu · project 777\n\n✗ not planned: POSTHOG_API_KEY_EU is not set");
    expect(text.trimEnd().split("\n").at(-1)).toBe(
      "3 environments: staging no changes; production 1 to update; eu not planned.",
    );
  });

  it("markdown: one marker, a table, a section each, within the comment's limit", () => {
    const markdown = renderEnvironmentsMarkdown(sections, { vocab, maxLength: 65_536 });
    const lines = markdown.split("\n");
    expect(lines[0]).toBe("<!-- posthog-gitops plan: environments staging,production,eu -->");
    expect(markdown.match(/<!-- posthog-gitops plan:/g)).toHaveLength(1);
    expect(markdown).toContain("| production | 12345 | 1 to update | 1 |");
    expect(markdown).toContain("| eu | 777 | **not planned** ⚠️ | - |");
    expect(markdown).toContain("### posthog-gitops plan for production (project 12345)");
    expect(markdown).toContain("· _from overlays/production.yaml:6_");
    expect(markdown).toContain("> **apply will refuse this plan here:** no");
    const many = Array.from({ length: 3 }, (_, e) => ({
      name: `e${e}`,
      project: e + 1,
      plan: plan(
        Array.from({ length: 400 }, (_, i) => ({
          ...update,
          object: { ...update.object, name: `Dashboard ${i}`, id: i },
        })),
      ),
    }));
    const cut = renderEnvironmentsMarkdown(many, { vocab, maxLength: 65_536 });
    expect(cut.length).toBeLessThanOrEqual(65_536);
    expect(cut.match(/This comment is cut to stay under GitHub's limit/g)).toHaveLength(3);
  });

  it("json: a top-level environments list, each plan in the single-project shape", () => {
    const doc = JSON.parse(renderEnvironmentsJson(sections));
    expect(doc.environments.map((e: { name: string }) => e.name)).toEqual(["staging", "production", "eu"]);
    expect(doc.environments[1].plan.actions[0].origins.pinned[0].how).toBe("overlay");
    expect(doc.environments[2]).toEqual({ name: "eu", project: 777, error: "POSTHOG_API_KEY_EU is not set" });
  });
});

describe("render --env: the environment's document", () => {
  it("comments each value an overlay or a variable set, each list it replaced, what it left out", async () => {
    const files = [
      {
        path: "envs.yaml",
        text: "environments:\n  production:\n    project: 12345\n    variables: {ROLLOUT: 20}\n",
      },
      {
        path: "shared.yaml",
        text: "environments: all\nfeature_flags:\n  - key: f\n    filters:\n      groups:\n        - rollout_percentage: ${ROLLOUT}\ndashboards:\n  - name: KPIs\n    tags: [a]\n    pinned: false\n  - name: Scratch\n",
      },
      {
        path: "production.yaml",
        text: "overlay: production\ndashboards:\n  - name: KPIs\n    tags: [b]\n    pinned: null\n    description: Board\n  - name: Scratch\n    exclude: true\n",
      },
    ];
    const result = await loadConfig({ files }, { env: {}, cwd: "/", kinds: KINDS, mode: "plan" });
    expect(result.diagnostics).toEqual([]);
    const environment = result.environments?.list[0];
    if (environment === undefined) throw new Error("no environment");
    const yaml = renderEnvironmentDocument(
      environment.document,
      environment.entry,
      "yaml",
      "envs.yaml",
      KINDS,
    );
    expect(yaml).toBe(
      [
        "# posthog-gitops render --env production: what environment production gets (project 12345), from envs.yaml and the files serving it.",
        "# A comment cites the overlay (or the variable) a value came from; secrets stay ${NAME} references.",
        '# Left out here by production.yaml:8: dashboard "Scratch".',
        "",
        "project: 12345",
        "dashboards:",
        "  # pinned: left unmanaged here by production.yaml:5",
        "  - name: KPIs",
        "    # replaced by production.yaml:4 (the shared list at shared.yaml:9 is not used here)",
        "    tags:",
        "      - b",
        "    description: Board # from production.yaml:6",
        "feature_flags:",
        "  - key: f",
        "    filters:",
        "      groups:",
        "        - rollout_percentage: 20 # ${ROLLOUT} (envs.yaml:4)",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      renderEnvironmentDocument(environment.document, environment.entry, "json", "envs.yaml", KINDS),
    );
    expect(json.dashboards[0]).toEqual({ name: "KPIs", tags: ["b"], description: "Board" });
  });
});
