/**
 * `promote --adopt` (SPEC §9), offline: the source's undeclared live objects become shared
 * declarations as `pull` writes them, without their pins; what still names another object by id, what
 * the service made by itself (a flag's usage dashboard), what several live objects are named, and what
 * a file declares already are left out, each saying why; each kind goes to the shared file that lists
 * it, else a new one.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { KINDS } from "../../src/kinds/index.js";
import type { ObjectRef } from "../../src/plan/types.js";
import { adopt } from "../../src/promote/adopt.js";
import { Placeholder } from "../../src/pull/kinds.js";
import { editYaml } from "../../src/yaml-edit/index.js";

const ref = (kind: string, name: string, id: number): ObjectRef => ({ kind, name, id, project: 12346 });

const DASHBOARDS = `environments: all
dashboards:
  - name: KPIs   # the weekly review
    tags: [kpi]
`;

function run(
  pulled: Record<string, Record<string, unknown>[]>,
  undeclared: ObjectRef[],
  files = { "shared/dashboards.yaml": DASHBOARDS },
) {
  const data = new Map(Object.entries(files).map(([path, text]) => [path, parse(text)]));
  return adopt({
    kinds: KINDS,
    undeclared,
    pulled: new Map(Object.entries(pulled)),
    targets: [...data]
      .filter(([path]) => path.startsWith("shared/"))
      .map(([path, d]) => ({ path, data: d, all: true })),
    files: data,
    folder: "shared",
    header: (name) => [`# new ${name}`],
  });
}

describe("adopt", () => {
  it("appends a dashboard as pull writes it, without its pin, keeping the file's lines", () => {
    const out = run(
      {
        dashboard: [
          { name: "KPIs", id: 1 },
          {
            name: "Growth",
            id: 7,
            description: "Costs ${X}",
            tiles: [{ insight: "Signups", layout: { x: 0, y: 0, w: 6, h: 5 } }],
          },
        ],
      },
      [ref("dashboard", "Growth", 7)],
    );
    expect(out.leftOut).toEqual([]);
    expect(out.adopted).toEqual([{ kind: "dashboard", name: "Growth", file: "shared/dashboards.yaml" }]);
    const edits = out.edits.get("shared/dashboards.yaml") ?? [];
    const text = editYaml(DASHBOARDS, edits).text;
    expect(text.startsWith(DASHBOARDS)).toBe(true);
    expect(parse(text).dashboards[1]).toEqual({
      name: "Growth",
      description: "Costs $${X}",
      tiles: [{ insight: "Signups", layout: { x: 0, y: 0, w: 6, h: 5 } }],
    });
  });

  it("leaves out a flag's usage dashboard, an id reference, a shared name and a name a file declares", () => {
    const out = run(
      {
        feature_flag: [{ key: "checkout", id: 3, filters: { groups: [] } }],
        dashboard: [
          { name: "Generated Dashboard: checkout Usage", id: 11 },
          { name: "By id", id: 12, tiles: [{ insight_id: 99 }] },
          { name: "Twice", id: 13 },
          { name: "Twice", id: 14 },
          { name: "KPIs", id: 15 },
        ],
      },
      [
        ref("dashboard", "Generated Dashboard: checkout Usage", 11),
        ref("dashboard", "By id", 12),
        ref("dashboard", "Twice", 13),
        ref("dashboard", "KPIs", 15),
      ],
    );
    expect(out.adopted).toEqual([]);
    expect(out.edits.size + out.created.size).toBe(0);
    expect(out.leftOut).toEqual([
      {
        kind: "dashboard",
        name: "By id",
        why: "tiles.0.insight_id names another object by its id (99), which is right for one project only: give it a name of its own, or declare it by hand",
      },
      {
        kind: "dashboard",
        name: "Generated Dashboard: checkout Usage",
        why: 'the service made it for feature flag "checkout"',
      },
      { kind: "dashboard", name: "KPIs", why: "shared/dashboards.yaml declares this name already" },
      {
        kind: "dashboard",
        name: "Twice",
        why: "several live dashboards have this name: rename them apart first",
      },
    ]);
  });

  it("writes a new shared file for a kind no shared file lists, with the secret variables it reads", () => {
    const out = run(
      {
        feature_flag: [
          {
            key: "prices",
            id: 5,
            name: "Prices",
            filters: {
              groups: [{ rollout_percentage: 100 }],
              payloads: { true: new Placeholder("PRICES_PAYLOAD_TRUE") },
            },
          },
        ],
      },
      [ref("feature_flag", "prices", 5)],
    );
    expect(out.adopted).toEqual([
      { kind: "feature_flag", name: "prices", file: "shared/feature-flags.yaml" },
    ]);
    expect(out.variables).toEqual(["PRICES_PAYLOAD_TRUE"]);
    const text = out.created.get("shared/feature-flags.yaml") ?? "";
    expect(text.split("\n")[0]).toBe("# new feature-flags.yaml");
    expect(parse(text)).toEqual({
      environments: "all",
      feature_flags: [
        {
          key: "prices",
          name: "Prices",
          filters: { groups: [{ rollout_percentage: 100 }], payloads: { true: "${PRICES_PAYLOAD_TRUE}" } },
        },
      ],
    });
  });

  it("leaves out an object whose live fields hold a secret's value", () => {
    const data = new Map([["shared/dashboards.yaml", parse(DASHBOARDS)]]);
    const out = adopt({
      kinds: KINDS,
      undeclared: [ref("dashboard", "Leaky", 9)],
      pulled: new Map([["dashboard", [{ name: "Leaky", id: 9, description: "token phx_Zq8Lr2Wv5Tn" }]]]),
      targets: [{ path: "shared/dashboards.yaml", data: data.get("shared/dashboards.yaml"), all: true }],
      files: data,
      folder: "shared",
      header: () => [],
      secretIn: (value) =>
        JSON.stringify(value).includes("phx_Zq8Lr2Wv5Tn") ? "(secret from $KEY)" : undefined,
    });
    expect(out.adopted).toEqual([]);
    expect(out.leftOut).toEqual([
      {
        kind: "dashboard",
        name: "Leaky",
        why: "its live fields hold (secret from $KEY), which is never written to a file",
      },
    ]);
  });
});
