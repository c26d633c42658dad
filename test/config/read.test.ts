/** File discovery problems that must not pass silently. */
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/index.js";
import { loadConfig } from "../../src/index.js";
import { dashboardsOf } from "../builders.js";
import { tree } from "./helpers.js";

describe("reading config folders", () => {
  it("reports a broken link named *.yaml as an error and still loads the other files", async () => {
    const root = tree({ "posthog/a.yaml": "project: 1\ndashboards: [{name: A}]\n" });
    symlinkSync(join(root, "posthog/missing.yaml"), join(root, "posthog/gone.yaml"));
    const result = await loadConfig(["posthog"], { env: {}, cwd: root, mode: "validate" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "posthog/gone.yaml: error: cannot read file: broken link",
    ]);
    expect(dashboardsOf(result.projects[0]).map((d) => d.name)).toEqual(["A"]);
  });

  it("reports a link loop, and still follows a working link to a file", async () => {
    const root = tree({ "real/b.yaml": "project: 1\ndashboards: [{name: B}]\n" });
    mkdirSync(join(root, "posthog"));
    symlinkSync(join(root, "posthog/loop.yml"), join(root, "posthog/loop.yml"));
    symlinkSync(join(root, "real/b.yaml"), join(root, "posthog/b.yaml"));
    const result = await loadConfig(["posthog"], { env: {}, cwd: root, mode: "validate" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "posthog/loop.yml: error: cannot read file: link loop",
    ]);
    expect(result.files).toEqual(["posthog/b.yaml"]);
  });
});
