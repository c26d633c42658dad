import { describe, expect, it } from "vitest";
import { staleObjects } from "../../src/apply/saved-plan.js";
import { KINDS } from "../../src/kinds/index.js";
import { buildPlan } from "../../src/plan/build.js";
import { fingerprintLive } from "../../src/plan/fingerprint.js";
import { kindOrder, sortActions } from "../../src/plan/sort.js";
import { featureLookupNeeded } from "../../src/plan/summary.js";
import {
  desiredBatchExport,
  desiredCollaborator,
  desiredDashboard,
  desiredProject,
  liveBatchExport,
  liveCollaborator,
  liveDashboard,
  liveProject,
  options,
} from "../builders.js";
import { planOne, steps } from "./helpers.js";

const A = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f0a";
const B = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f0b";

describe("sortActions", () => {
  it("orders per object create, update, removes, adds, sharing, pause; deletes last; objects by project, kind, name", () => {
    const desired = [
      desiredProject({
        project: 2,
        dashboards: [desiredDashboard({ name: "z" })],
      }),
      desiredProject({
        project: 1,
        dashboards: [
          desiredDashboard({
            name: "b",
            pinned: true,
            restriction_level: 37,
            collaborators: [desiredCollaborator(B)],
            sharing: { enabled: true },
          }),
          desiredDashboard({ name: "a", deleted: true }),
          desiredDashboard({ name: "c" }),
        ],
        batchExports: [
          desiredBatchExport({ name: "a-export", paused: true, interval: "day" }),
          desiredBatchExport({ name: "gone", deleted: true }),
        ],
      }),
    ];
    const live = [
      liveProject({ project: 2 }),
      liveProject({
        project: 1,
        dashboards: [
          liveDashboard({ id: 1, name: "a" }),
          liveDashboard({ id: 2, name: "b", restriction_level: 37 }),
        ],
        collaborators: { 2: [liveCollaborator(2, A)] },
        batchExports: [liveBatchExport({ name: "a-export" }), liveBatchExport({ name: "gone" })],
      }),
    ];
    const { plan } = buildPlan(KINDS, desired, live, options());
    expect(steps(plan.actions)).toEqual([
      "update:b",
      "remove_collaborator:b",
      "add_collaborator:b",
      "enable_sharing:b",
      "create:c",
      "update:a-export",
      "pause:a-export",
      "create:z",
      "soft_delete:a",
      "delete:gone",
    ]);
    expect(sortActions([...plan.actions].reverse(), kindOrder(KINDS))).toEqual(plan.actions);
    expect(plan.projects).toEqual([1, 2]);
    expect(plan.summary).toEqual({
      counts: {
        update: 2,
        remove_collaborator: 1,
        add_collaborator: 1,
        enable_sharing: 1,
        create: 2,
        pause: 1,
        soft_delete: 1,
        delete: 1,
      },
      total: 10,
      destructive: true,
    });
  });
});

describe("fingerprints", () => {
  const dashboard = liveDashboard({ id: 3, description: "x" });
  const desired = { dashboards: [desiredDashboard({ description: "y", collaborators: [] })] };

  it("are stable across plans and ignore server-owned fields that move on their own", () => {
    const first = planOne(desired, { dashboards: [dashboard] }).plan.fingerprints;
    const viewed = {
      ...dashboard,
      last_accessed_at: "2026-03-01T00:00:00Z",
      last_refresh: "2026-03-01T00:00:00Z",
    };
    const second = planOne(desired, { dashboards: [viewed] }).plan.fingerprints;
    expect(first).toEqual(second);
    expect(first["12345/dashboard/Weekly KPIs"]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("change when a managed field, a collaborator or the sharing switch changes", () => {
    const ref = { kind: "dashboard" as const, project: 12345, name: "Weekly KPIs", id: 3 };
    const base = fingerprintLive(KINDS, liveProject({ dashboards: [dashboard] }), ref);
    const variants = [
      liveProject({ dashboards: [{ ...dashboard, description: "z" }] }),
      liveProject({ dashboards: [{ ...dashboard, tags: ["new"] }] }),
      liveProject({ dashboards: [dashboard], collaborators: { 3: [liveCollaborator(3, A)] } }),
      liveProject({
        dashboards: [dashboard],
        sharing: { 3: { created_at: null, enabled: true, access_token: "t" } },
      }),
      liveProject({}),
    ];
    const prints = variants.map((v) => fingerprintLive(KINDS, v, ref));
    expect(new Set([base, ...prints]).size).toBe(variants.length + 1);
    expect(prints.at(-1)).toBe("absent");
  });

  it("cover batch exports by id and name", () => {
    const live = liveBatchExport({ name: "e" });
    const project = liveProject({ batchExports: [live] });
    const byId = fingerprintLive(KINDS, project, {
      kind: "batch_export",
      project: 12345,
      name: "e",
      id: live.id,
    });
    const byName = fingerprintLive(KINDS, project, { kind: "batch_export", project: 12345, name: "e" });
    expect(byId).toBe(byName);
    const paused = fingerprintLive(KINDS, liveProject({ batchExports: [{ ...live, paused: true }] }), {
      kind: "batch_export",
      project: 12345,
      name: "e",
    });
    expect(paused).not.toBe(byId);
  });
});

describe("fingerprints of pinned objects that share a name", () => {
  it("key each one by its id, so a saved plan checks every one of them", () => {
    const twins = [liveDashboard({ id: 3, name: "Twin" }), liveDashboard({ id: 4, name: "Twin" })];
    const desired = {
      dashboards: [
        desiredDashboard({ name: "Twin", id: 3, description: "first" }),
        desiredDashboard({ name: "Twin", id: 4, description: "second" }),
      ],
    };
    const { plan } = planOne(desired, { dashboards: twins });
    expect(Object.keys(plan.fingerprints).sort()).toEqual([
      "12345/dashboard/Twin#3",
      "12345/dashboard/Twin#4",
    ]);
    // The second twin edited since the plan: it alone is stale.
    const edited = [twins[0], { ...twins[1], description: "edited in the UI" }];
    const stale = staleObjects(KINDS, plan, [liveProject({ dashboards: edited as never })]);
    expect(stale.map((o) => o.id)).toEqual([4]);
  });
});

describe("featureLookupNeeded", () => {
  it("is true only when the plan writes tags", () => {
    const live = { dashboards: [liveDashboard({ tags: ["a"] })] };
    expect(
      featureLookupNeeded(
        KINDS,
        planOne({ dashboards: [desiredDashboard({ tags: ["b"] })] }, live).plan.actions,
      ),
    ).toBe(true);
    expect(
      featureLookupNeeded(
        KINDS,
        planOne({ dashboards: [desiredDashboard({ tags: ["A"] })] }, live).plan.actions,
      ),
    ).toBe(false);
    expect(
      featureLookupNeeded(
        KINDS,
        planOne({ dashboards: [desiredDashboard({ pinned: true })] }, live).plan.actions,
      ),
    ).toBe(false);
    expect(
      featureLookupNeeded(
        KINDS,
        planOne({ dashboards: [desiredDashboard({ name: "n", tags: ["x"] })] }, live).plan.actions,
      ),
    ).toBe(true);
  });
});
