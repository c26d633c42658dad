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
      "--target widget: expected dashboard/NAME or batch_export/NAME",
    ]);
  });
});
