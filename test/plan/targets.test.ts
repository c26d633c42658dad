import { describe, expect, it } from "vitest";
import { desiredBatchExport, desiredDashboard, liveBatchExport, liveDashboard } from "../builders.js";
import { planOne, steps } from "./helpers.js";

describe("--target", () => {
  const desired = {
    dashboards: [desiredDashboard({ name: "One" }), desiredDashboard({ name: "Two" })],
    batchExports: [desiredBatchExport({ name: "exp" })],
  };
  const live = {
    dashboards: [liveDashboard({ name: "Stray" })],
    batchExports: [liveBatchExport({ name: "exp", interval: "day" })],
  };

  it.each([
    [["dashboard/Two"], ["create:Two"]],
    [["batch_export/exp"], ["update:exp"]],
    [
      ["dashboard/One", "batch_export/exp"],
      ["create:One", "update:exp"],
    ],
    [["dashboard/Stray"], []],
  ])("%j narrows the plan", (targets, expected) => {
    const { plan, errors } = planOne(desired, live, { targets });
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual(expected);
  });

  it("narrows prune to the named live object", () => {
    const { plan } = planOne(desired, live, { targets: ["dashboard/Stray"], prune: true });
    expect(steps(plan.actions)).toEqual(["soft_delete:Stray"]);
  });

  it("reports targets that name nothing or are malformed", () => {
    const { errors } = planOne(desired, live, { targets: ["dashboard/Nope", "widget"] });
    expect(errors.map((e) => e.message)).toEqual([
      "--target dashboard/Nope: no declared or live dashboard has this name",
      "--target widget: expected dashboard/NAME, insight/NAME, feature_flag/NAME, cohort/NAME, action/NAME, batch_export/NAME, KIND/#ID or a glob such as dashboard/Weekly*",
    ]);
  });

  it.each([
    [["dashboard/T*"], ["create:Two"]],
    [["dashboard/*"], ["create:One", "create:Two"]],
    [["dashboards/?wo"], ["create:Two"]],
    [["batch-export/e[x]p"], ["update:exp"]],
  ])("the glob %j narrows the plan", (targets, expected) => {
    const { plan, errors } = planOne(desired, live, { targets });
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual(expected);
    expect(plan.targets).toEqual(targets);
  });

  it("#ID names a live or pinned object by its id", () => {
    const pinned = { dashboards: [desiredDashboard({ name: "Renamed", id: 77 })] };
    const liveOld = { dashboards: [liveDashboard({ id: 77, name: "Old name" })] };
    const { plan, errors } = planOne(pinned, liveOld, { targets: ["dashboard/#77"] });
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual(["update:Renamed"]);
    const { plan: pruned } = planOne(desired, live, {
      targets: [`dashboard/#${live.dashboards[0]!.id}`],
      prune: true,
    });
    expect(steps(pruned.actions)).toEqual(["soft_delete:Stray"]);
  });

  it("fails when a glob or an id matches nothing, and a plan without --target is not partial", () => {
    const { errors } = planOne(desired, live, { targets: ["dashboard/Z*", "dashboard/#999999"] });
    expect(errors.map((e) => e.message)).toEqual([
      "--target dashboard/Z*: no declared or live dashboard has a name matching it",
      "--target dashboard/#999999: no declared or live dashboard has this id",
    ]);
    expect(planOne(desired, live, {}).plan.targets).toBeUndefined();
  });

  it("a name is always itself, even with glob characters or a leading #", () => {
    const odd = {
      dashboards: [desiredDashboard({ name: "Q[1] {draft}" }), desiredDashboard({ name: "#1 launch" })],
    };
    expect(steps(planOne(odd, {}, { targets: ["dashboard/Q[1] {draft}"] }).plan.actions)).toEqual([
      "create:Q[1] {draft}",
    ]);
    expect(steps(planOne(odd, {}, { targets: ["dashboard/\\#1 launch"] }).plan.actions)).toEqual([
      "create:#1 launch",
    ]);
  });
});
