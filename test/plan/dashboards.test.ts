import { describe, expect, it } from "vitest";
import {
  desiredCollaborator,
  desiredDashboard,
  liveCollaborator,
  liveDashboard,
  sharingConfig,
} from "../builders.js";
import { planOne, steps } from "./helpers.js";

const ALICE = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f01";
const BOB = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f02";

describe("dashboards", () => {
  it("creates a declared dashboard that is not live, with only the declared fields", () => {
    const { plan, errors } = planOne(
      { dashboards: [desiredDashboard({ description: "Growth", tags: ["KPI", "growth"] })] },
      {},
    );
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual(["create:Weekly KPIs"]);
    expect(plan.actions[0]?.after).toEqual({
      name: "Weekly KPIs",
      description: "Growth",
      tags: ["growth", "kpi"],
    });
    expect(plan.actions[0]?.before).toBeUndefined();
    expect(plan.fingerprints["12345/dashboard/Weekly KPIs"]).toBe("absent");
  });

  it("plans nothing when the live dashboard matches", () => {
    const live = liveDashboard({ description: "Growth", pinned: true, tags: ["growth", "KPI"] });
    const desired = desiredDashboard({ description: "Growth", pinned: true, tags: ["kpi", "growth"] });
    const { plan, errors } = planOne({ dashboards: [desired] }, { dashboards: [live] });
    expect(errors).toEqual([]);
    expect(plan.actions).toEqual([]);
  });

  it("updates only declared fields that differ, with a unified diff for the description", () => {
    const live = liveDashboard({
      id: 7,
      description: "line one\nline two",
      pinned: true,
      restriction_level: 21,
    });
    const desired = desiredDashboard({ description: "line one\nline 2", restriction_level: 37 });
    const { plan } = planOne({ dashboards: [desired] }, { dashboards: [live] });
    expect(steps(plan.actions)).toEqual(["update:Weekly KPIs"]);
    const update = plan.actions[0];
    expect(update?.object.id).toBe(7);
    expect(update?.changes.map((c) => c.path)).toEqual(["description", "restriction_level"]);
    expect(update?.after).toEqual({ description: "line one\nline 2", restriction_level: 37 });
    expect(update?.before).toEqual({ description: "line one\nline two", restriction_level: 21 });
    expect(update?.changes[0]?.diff).toContain("-line two\n+line 2");
  });

  it("a description too different to diff: line counts and where to see it whole, never the diff", () => {
    const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}`).join("\n");
    const live = liveDashboard({ id: 7, description: lines(1500, "old") });
    const desired = desiredDashboard({ description: lines(1400, "new") });
    const { plan } = planOne({ dashboards: [desired] }, { dashboards: [live] });
    const change = plan.actions[0]?.changes[0];
    expect(change?.path).toBe("description");
    expect(change?.diff).toBeUndefined();
    expect(change?.says).toEqual([
      "changed (1500 → 1400 lines), diff too large to show: plan --format json shows both values",
    ]);
    // The values themselves stay in the plan (JSON shows them whole).
    expect(change?.after).toBe(lines(1400, "new"));
  });

  it("a diff that is cheap to compute but long to read is not shown either", () => {
    const live = liveDashboard({ id: 7, description: "x".repeat(200_000) });
    const desired = desiredDashboard({ description: "y".repeat(200_000) });
    const change = planOne({ dashboards: [desired] }, { dashboards: [live] }).plan.actions[0]?.changes[0];
    expect(change?.diff).toBeUndefined();
    expect(change?.says?.[0]).toBe(
      "changed (1 → 1 lines), diff too large to show: plan --format json shows both values",
    );
    // More lines than a description holds (each one short): not even split into lines to diff.
    const many = planOne(
      { dashboards: [desiredDashboard({ description: `${"a\n".repeat(150_000)}b` })] },
      { dashboards: [liveDashboard({ id: 7, description: `${"a\n".repeat(150_000)}c` })] },
    ).plan.actions[0]?.changes[0];
    expect(many?.says?.[0]).toBe(
      "changed (150001 → 150001 lines), diff too large to show: plan --format json shows both values",
    );
  });

  it("renames through an id pin", () => {
    const live = liveDashboard({ id: 42, name: "Old name" });
    const { plan, errors } = planOne(
      { dashboards: [desiredDashboard({ id: 42, name: "New name" })] },
      { dashboards: [live] },
    );
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual(["update:New name"]);
    expect(plan.actions[0]?.changes).toEqual([{ path: "name", before: "Old name", after: "New name" }]);
  });

  it("does not let a name claim a live object pinned by another declaration", () => {
    const live = liveDashboard({ id: 42, name: "Shared" });
    const desired = [desiredDashboard({ id: 42, name: "Renamed" }), desiredDashboard({ name: "Shared" })];
    const { plan } = planOne({ dashboards: desired }, { dashboards: [live] });
    expect(steps(plan.actions)).toEqual(["update:Renamed", "create:Shared"]);
  });

  it("refuses an ambiguous name, naming the ids and asking for a pin", () => {
    const lives = [liveDashboard({ id: 3, name: "Dup" }), liveDashboard({ id: 9, name: "Dup" })];
    const desired = desiredDashboard({ name: "Dup" });
    const { errors } = planOne({ dashboards: [desired] }, { dashboards: lives });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/"Dup".*ids 3, 9.*`id:` pin/);
    expect(errors[0]?.source).toEqual(desired.source);
  });

  it("accepts a duplicated live name once the declaration pins one of them", () => {
    const lives = [
      liveDashboard({ id: 3, name: "Dup" }),
      liveDashboard({ id: 9, name: "Dup", pinned: true }),
    ];
    const { plan, errors } = planOne(
      { dashboards: [desiredDashboard({ id: 9, name: "Dup", pinned: false })] },
      { dashboards: lives },
    );
    expect(errors).toEqual([]);
    expect(plan.actions.map((a) => [a.action, a.object.id])).toEqual([["update", 9]]);
  });

  it.each([
    ["live", true, ["soft_delete:Weekly KPIs"]],
    ["absent", false, []],
  ])("soft-deletes a tombstone when %s", (_label, isLive, expected) => {
    const dashboards = isLive ? [liveDashboard({ id: 5 })] : [];
    const { plan } = planOne({ dashboards: [desiredDashboard({ deleted: true })] }, { dashboards });
    expect(steps(plan.actions)).toEqual(expected);
    if (isLive) expect(plan.actions[0]?.destructive).toBe(true);
  });

  it("restores a pinned dashboard missing from the live list, then sends every declared field", () => {
    const desired = desiredDashboard({ id: 77, description: "Back", sharing: { enabled: true } });
    const { plan, errors } = planOne({ dashboards: [desired] }, {});
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual([
      "restore:Weekly KPIs",
      "update:Weekly KPIs",
      "enable_sharing:Weekly KPIs",
    ]);
    const [restore, update] = plan.actions;
    expect(restore?.after).toEqual({ deleted: false });
    expect(restore?.object.id).toBe(77);
    expect(restore?.warnings[0]).toMatch(
      /not in the live list: restored if soft-deleted; apply fails if it never existed/,
    );
    expect(update?.after).toEqual({ name: "Weekly KPIs", description: "Back" });
    expect(plan.fingerprints["12345/dashboard/Weekly KPIs"]).toBe("absent");
  });

  it("removes undeclared collaborators before adding missing ones, matched by user uuid", () => {
    const live = liveDashboard({ id: 8, restriction_level: 37 });
    const desired = desiredDashboard({ restriction_level: 37, collaborators: [desiredCollaborator(BOB)] });
    const { plan } = planOne(
      { dashboards: [desired] },
      { dashboards: [live], collaborators: { 8: [liveCollaborator(8, ALICE)] } },
    );
    expect(steps(plan.actions)).toEqual(["remove_collaborator:Weekly KPIs", "add_collaborator:Weekly KPIs"]);
    expect(plan.actions[0]?.before).toEqual({ user_uuid: ALICE, level: 37 });
    expect(plan.actions[1]?.after).toEqual({ user_uuid: BOB, level: 37 });
  });

  it("leaves collaborators alone when they are not declared", () => {
    const live = liveDashboard({ id: 8, restriction_level: 37 });
    const { plan } = planOne(
      { dashboards: [desiredDashboard({ restriction_level: 37 })] },
      { dashboards: [live], collaborators: { 8: [liveCollaborator(8, ALICE)] } },
    );
    expect(plan.actions).toEqual([]);
  });

  it("notes instead of planning collaborators forever when the effective level stays 21", () => {
    const live = liveDashboard({ id: 8, restriction_level: 37, effective_restriction_level: 21 });
    const desired = desiredDashboard({ restriction_level: 37, collaborators: [desiredCollaborator(BOB)] });
    const { plan } = planOne({ dashboards: [desired] }, { dashboards: [live] });
    expect(plan.actions).toEqual([]);
    expect(plan.notes[0]?.message).toMatch(/access control feature/);
  });

  it.each([
    [false, true, "enable_sharing"],
    [true, false, "disable_sharing"],
  ])("switches sharing from %s to %s", (from, to, action) => {
    const live = liveDashboard({ id: 4, is_shared: from });
    const { plan } = planOne(
      { dashboards: [desiredDashboard({ sharing: { enabled: to } })] },
      { dashboards: [live], sharing: { 4: sharingConfig(from) } },
    );
    expect(plan.actions.map((a) => [a.action, a.before, a.after])).toEqual([
      [action, { enabled: from }, { enabled: to }],
    ]);
  });

  it("follows a create with its collaborators and sharing", () => {
    const desired = desiredDashboard({
      restriction_level: 37,
      collaborators: [desiredCollaborator(BOB), desiredCollaborator(ALICE)],
      sharing: { enabled: true },
    });
    const { plan } = planOne({ dashboards: [desired] }, {});
    expect(plan.actions.map((a) => a.action)).toEqual([
      "create",
      "add_collaborator",
      "add_collaborator",
      "enable_sharing",
    ]);
    expect(plan.actions.slice(1, 3).map((a) => a.after?.user_uuid)).toEqual([ALICE, BOB]);
  });

  it("does not plan tags the service ignores without the tagging feature, and says so", () => {
    const live = liveDashboard({ tags: [] });
    const desired = desiredDashboard({ tags: ["kpi"], pinned: true });
    const features = { tagging: false, access_control: true };
    const onlyTags = planOne(
      { dashboards: [desiredDashboard({ tags: ["kpi"] })] },
      { dashboards: [live], features },
    );
    expect(onlyTags.plan.actions).toEqual([]);
    expect(onlyTags.plan.notes.map((n) => n.message)).toEqual([
      "the organization lacks the tagging feature: the service ignores tags",
    ]);
    const mixed = planOne({ dashboards: [desired] }, { dashboards: [live], features });
    expect(mixed.plan.actions[0]?.changes.map((c) => c.path)).toEqual(["pinned"]);
  });

  it("refuses two declarations pinning one id", () => {
    const { errors } = planOne(
      { dashboards: [desiredDashboard({ id: 4, name: "A" }), desiredDashboard({ id: 4, name: "B" })] },
      { dashboards: [liveDashboard({ id: 4, name: "A" })] },
    );
    expect(errors.map((e) => e.message)).toEqual([
      'dashboard "B": id 4 is already pinned by "A" (posthog/project.yaml:1); one live object cannot be declared twice',
    ]);
  });

  it("notes instead of adding collaborators when the organization lacks access control", () => {
    const live = liveDashboard({ id: 8, restriction_level: 21 });
    const desired = desiredDashboard({ restriction_level: 37, collaborators: [desiredCollaborator(BOB)] });
    const features = { tagging: true, access_control: false };
    const { plan } = planOne({ dashboards: [desired] }, { dashboards: [live], features });
    expect(plan.actions.map((a) => a.action)).toEqual(["update"]);
    expect(plan.notes).toHaveLength(1);
    const withFeature = planOne(
      { dashboards: [desired] },
      { dashboards: [live], features: { ...features, access_control: true } },
    );
    expect(withFeature.plan.actions.map((a) => a.action)).toEqual(["update", "add_collaborator"]);
  });

  it("falls back to is_shared when the sharing configuration was not fetched", () => {
    const live = liveDashboard({ id: 4, is_shared: true });
    const { plan } = planOne(
      { dashboards: [desiredDashboard({ sharing: { enabled: true } })] },
      { dashboards: [live] },
    );
    expect(plan.actions).toEqual([]);
  });
});
