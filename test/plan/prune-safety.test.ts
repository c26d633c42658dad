import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/index.js";
import { checkSafety, deleteLimit } from "../../src/plan/safety.js";
import {
  desiredBatchExport,
  desiredDashboard,
  liveBatchExport,
  liveDashboard,
  liveProject,
} from "../builders.js";
import { planOne, steps } from "./helpers.js";

describe("prune", () => {
  const live = {
    dashboards: [
      liveDashboard({ id: 1, name: "Kept" }),
      liveDashboard({ id: 2, name: "Stray" }),
      liveDashboard({ id: 3, name: "Generated 2026-01" }),
      liveDashboard({ id: 4, name: "Old funnel" }),
      liveDashboard({ id: 5, name: "Pinned elsewhere" }),
    ],
    batchExports: [liveBatchExport({ name: "stray-export" })],
  };
  const declared = {
    dashboards: [
      desiredDashboard({ name: "Kept" }),
      desiredDashboard({ name: "Old funnel", deleted: true }),
      desiredDashboard({ name: "Renamed", id: 5 }),
    ],
    ignore: { dashboards: ["Generated *"], batch_exports: [] },
  };

  it("deletes undeclared live objects except ignored ones, counting tombstones and pins as declared", () => {
    const { plan } = planOne(declared, live, { prune: true });
    expect(steps(plan.actions)).toEqual([
      "update:Renamed",
      "soft_delete:Old funnel",
      "soft_delete:Stray",
      "delete:stray-export",
    ]);
    expect(plan.actions.find((a) => a.object.name === "Stray")?.object).toEqual({
      kind: "dashboard",
      project: 12345,
      name: "Stray",
      id: 2,
    });
  });

  it("prunes nothing without --prune", () => {
    const { plan } = planOne(declared, live);
    expect(steps(plan.actions)).toEqual(["update:Renamed", "soft_delete:Old funnel"]);
  });

  it("prunes only the kinds the project manages", () => {
    const { plan } = planOne({ ...declared, manages: { dashboards: true, batch_exports: false } }, live, {
      prune: true,
    });
    expect(plan.actions.some((a) => a.object.kind === "batch_export")).toBe(false);
    const onlyExports = planOne(
      {
        batchExports: [desiredBatchExport({ name: "other" })],
        manages: { dashboards: false, batch_exports: true },
      },
      live,
      { prune: true },
    );
    expect(steps(onlyExports.plan.actions)).toEqual(["create:other", "delete:stray-export"]);
  });

  it("gives pruned objects sharing a live name distinct keys", () => {
    const dup = {
      dashboards: [liveDashboard({ id: 8, name: "Dup" }), liveDashboard({ id: 9, name: "Dup" })],
    };
    const { plan } = planOne({}, dup, { prune: true });
    expect(Object.keys(plan.fingerprints).sort()).toEqual([
      "12345/dashboard/Dup (id 8)",
      "12345/dashboard/Dup (id 9)",
    ]);
  });
});

describe("checkSafety", () => {
  it.each([
    [0, 5],
    [10, 5],
    [25, 5],
    [30, 6],
    [100, 20],
  ])("allows max(5, 20%%) deletes of %i live objects: %i", (liveCount, limit) => {
    expect(deleteLimit(liveCount)).toBe(limit);
  });

  function pruneAll(count: number, force = false) {
    const dashboards = Array.from({ length: count }, (_, i) => liveDashboard({ id: i + 1, name: `d${i}` }));
    const { plan } = planOne({}, { dashboards }, { prune: true });
    return checkSafety(KINDS, plan, [liveProject({ dashboards })], { force });
  }

  it("allows deleting up to the limit", () => {
    expect(pruneAll(5)).toBeUndefined();
  });

  it("refuses more than the limit, naming the counts, unless forced", () => {
    expect(pruneAll(6)).toMatch(/deletes 6 of 6 dashboards in project 12345 \(limit 5\).*--force/);
    expect(pruneAll(6, true)).toBeUndefined();
  });

  it("counts each kind against its own live objects", () => {
    const dashboards = Array.from({ length: 50 }, (_, i) => liveDashboard({ id: i + 1, name: `d${i}` }));
    const batchExports = Array.from({ length: 6 }, (_, i) => liveBatchExport({ name: `b${i}` }));
    const keep = dashboards.slice(0, 40).map((d) => desiredDashboard({ name: d.name ?? "" }));
    const { plan } = planOne({ dashboards: keep }, { dashboards, batchExports }, { prune: true });
    expect(checkSafety(KINDS, plan, [liveProject({ dashboards, batchExports })], { force: false })).toMatch(
      /^refusing a plan that deletes 6 of 6 batch exports/,
    );
  });
});
