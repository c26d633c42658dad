/**
 * `apply --format json` (issue 21): stdout is one document, the same shape as the library's
 * `applyPlan` result (schemas/apply.schema.json): one outcome per action, the duplicate check, and
 * `ok`; the plan and the result lines go to stderr for the log. Its `ok` and the exit code agree.
 */
import { describe, expect, it } from "vitest";
import { applyPlan, createClient, loadConfig, makePlan } from "../../src/index.js";
import { useEmulator } from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });

const CONFIG = [
  "project: 12345",
  "dashboards:",
  "  - name: Made by JSON apply",
  "  - name: Product KPIs",
  "    description: changed by the JSON apply",
  "  - name: Revenue",
  "    pinned: true",
  "",
].join("\n");

describe("apply --format json", () => {
  it("prints one document of per-action outcomes on stdout, the plan and lines on stderr", async () => {
    h.write("p/d.yaml", CONFIG);
    await h.faults({ rules: [{ method: "PATCH", path: "/dashboards/3/?$", status: 400, times: 1 }] });
    const out = await h.cli(["apply", "--auto-approve", "--format", "json", "p"]);
    const doc = validJson("apply", out.stdout);
    expect(doc.format_version).toBe("2");
    expect(doc.ok).toBe(false);
    const outcomes = doc.results.map(
      (r: { action: { action: string; object: { name: string } }; outcome: string }) => [
        r.action.action,
        r.action.object.name,
        r.outcome,
      ],
    );
    expect(outcomes.sort()).toEqual([
      ["create", "Made by JSON apply", "ok"],
      ["update", "Product KPIs", "ok"],
      ["update", "Revenue", "failed"],
    ]);
    const failed = doc.results.find((r: { outcome: string }) => r.outcome === "failed");
    expect(failed.error).toMatch(/^PATCH dashboards\/3: 400/);
    expect(doc.results.find((r: { action: { action: string } }) => r.action.action === "create").id).toEqual(
      expect.any(Number),
    );
    expect(doc.duplicates).toEqual([]);
    expect(out.stderr).toContain('+ dashboard "Made by JSON apply"');
    expect(out.stderr).toContain("Apply failed: 2 succeeded, 1 failed, 0 skipped.");
    expect(out.code).toBe(1);

    const again = await h.cli(["apply", "--auto-approve", "--format", "json", "p"]);
    expect(validJson("apply", again.stdout)).toMatchObject({ ok: true, duplicates: [] });
    expect(again.code).toBe(0);
    const none = await h.cli(["apply", "--auto-approve", "--format", "json", "p"]);
    expect(JSON.parse(none.stdout)).toEqual({ format_version: "2", ok: true, results: [], duplicates: [] });
    expect(none.code).toBe(0);
  });

  it("is the shape the library's applyPlan returns", async () => {
    const config = await loadConfig({ files: [{ path: "d.yaml", text: CONFIG }] });
    const client = createClient({ host: h.url, apiKey: h.key, clock: h.clock });
    try {
      const plan = await makePlan(config, client, { clock: h.clock });
      const result = await applyPlan(plan, client);
      expect(result.ok).toBe(true);
      expect(validJson("apply", JSON.stringify(result)).results).toHaveLength(3);
    } finally {
      await client.close();
    }
  });
});
