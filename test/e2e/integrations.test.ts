/**
 * A Databricks export whose credentials live in a PostHog Integration, through the real CLI and the
 * emulator: created with its integration_id, in sync afterwards, moved to another integration (and a
 * config change still names it, as the service requires), and refused before any request without one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Json, useE2E } from "./helpers.js";

const h = useE2E();

const config = (integration: string, table = "events") => `project: 12345
batch_exports:
  - name: Lake
    interval: day
    destination:
      type: Databricks
${integration}      config:
        http_path: /sql/1.0/warehouses/abc
        catalog: main
        schema: posthog
        table_name: ${table}
`;

const lake = async () => (await h.state()).batch_exports.filter((b: Json) => b.name === "Lake" && !b.deleted);

describe("destinations with an integration", () => {
  it("creates, stays in sync, and follows a changed integration_id", async () => {
    h.write("posthog/lake.yaml", config("      integration_id: 7\n"));
    const created = await h.cli(["apply", "--auto-approve", "posthog"]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect((await lake()).map((b: Json) => b.destination.integration)).toEqual([7]);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);

    h.write("posthog/lake.yaml", config("      integration_id: 8\n"));
    const planned = await h.cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toMatch(/destination\.integration_id[^\n]*7[^\n]*8/);
    expect((await h.cli(["apply", "--auto-approve", "posthog"])).code).toBe(0);
    expect((await lake()).map((b: Json) => b.destination.integration)).toEqual([8]);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);

    h.write("posthog/lake.yaml", config("      integration_id: 8\n", "events_v2"));
    const moved = await h.cli(["apply", "--auto-approve", "posthog"]);
    expect(moved.stdout).not.toContain("✗");
    expect(moved.code).toBe(0);
    const [after] = await lake();
    expect([after.destination.config.table_name, after.destination.integration]).toEqual(["events_v2", 8]);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
  });

  it("pulls the integration as integration_id, and the pulled files plan no change", async () => {
    h.write("posthog/lake.yaml", config("      integration_id: 7\n"));
    expect((await h.cli(["apply", "--auto-approve", "posthog"])).code).toBe(0);
    const pull = await h.cli(["pull", "--project", "12345", "--out", "pulled", "--kind", "batch_exports"]);
    expect(pull.code).toBe(0);
    const written = readFileSync(join(h.dir, "pulled/batch-exports.yaml"), "utf8");
    expect(written).toMatch(/type: Databricks\n\s+integration_id: 7\n/);
    expect((await h.cli(["plan", "--detailed-exitcode", "pulled"])).code).toBe(0);
  });

  it("refuses a Databricks export without integration_id before sending anything", async () => {
    h.write("posthog/lake.yaml", config(""));
    await h.clearRequests();
    for (const command of ["validate", "plan"]) {
      const run = await h.cli([command, "posthog"]);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain("set destination.integration_id");
    }
    expect(await h.requests()).toEqual([]);
    expect(await lake()).toEqual([]);
  });
});
