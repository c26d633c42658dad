/**
 * Plan format 2 (STYLE practice 15, issue 32): what the reviewer reads is apart from what apply needs.
 * The single-project production example (test/fixtures/) is applied to the emulator, then changed in every kind (a dashboard's
 * description and a tile's layout, an insight's query, a flag's rollout, its key turned off, and an
 * encrypted payload sent again, an export's interval and destination), and the JSON plan is
 * checked: every update has the same keys in `before` and `after`, down to the fields that change,
 * and holds no apply data there (a flag's version and stored values, the flags it depends on, an
 * export's companions, a tile's insight id), which are in `preconditions`, `requires` and `sends`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const SECRETS = { PRODUCTION_PROJECT_TOKEN: "phc_Ex7Lq2Vm9Rt4Kw", PRICING_PAYLOAD: "ExPrc7Lq2Vm9Rt" };
const FOLDER = join(ROOT, "test", "fixtures", "single-project", "production");

type Json = Record<string, unknown>;
interface Action {
  action: string;
  object: { kind: string; name: string };
  before?: Json;
  after?: Json;
  changes: Array<{ path: string; secret?: boolean }>;
  requires?: Json[];
  preconditions?: Json;
  sends?: Json;
}

const example = (file: string) => readFileSync(join(FOLDER, file), "utf8");

/** The key paths of `value` down to the changed fields (a path of `changes`, or a prefix of one). */
function shape(value: unknown, paths: readonly string[], at = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [at];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = at === "" ? key : `${at}.${key}`;
    return paths.some((p) => p.startsWith(`${path}.`)) ? shape(child, paths, path) : [path];
  });
}

describe("the JSON plan's sides", () => {
  it("every update has the same keys on both sides, apply's data beside them", async () => {
    const applied = await h.cli(["apply", "--auto-approve", FOLDER], SECRETS);
    expect(applied.code, applied.stderr).toBe(0);
    h.write(
      "p/dashboards.yaml",
      example("dashboards.yaml")
        .replace("Growth team weekly review", "Growth team's weekly review")
        .replace("layout: {x: 0, y: 0, w: 6, h: 5}", "layout: {x: 0, y: 0, w: 5, h: 5}"),
    );
    h.write("p/insights.yaml", example("insights.yaml").replace("interval: week", "interval: day"));
    h.write(
      "p/feature-flags.yaml",
      example("feature-flags.yaml")
        .replace("- rollout_percentage: 30", "- rollout_percentage: 60")
        .replace("name: Checkout v1\n    active: true", "name: Checkout v1\n    active: false"),
    );
    h.write(
      "p/batch-exports.yaml",
      example("batch-exports.yaml")
        .replace("interval: hour", "interval: day")
        .replace("prefix: posthog/production/events/", "prefix: posthog/production/events/v2/"),
    );
    const planned = await h.cli(["plan", "--format", "json", "--rotate-secrets", "--force", "p"], {
      ...SECRETS,
      PRICING_PAYLOAD: '{"tier": "new"}',
    });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as { format_version: string; actions: Action[] };
    expect(plan.format_version).toBe("2");
    const updates = plan.actions.filter((a) => a.action === "update" || a.action === "update_tile");
    expect(new Set(updates.map((a) => `${a.object.kind} ${a.action}`))).toEqual(
      new Set([
        "dashboard update",
        "dashboard update_tile",
        "insight update",
        "feature_flag update",
        "batch_export update",
      ]),
    );
    for (const update of updates) {
      const paths = update.changes.map((c) => c.path);
      const where = `${update.object.kind} "${update.object.name}"`;
      expect(shape(update.before, paths), where).toEqual(shape(update.after, paths));
      for (const side of [update.before, update.after]) {
        for (const key of ["version", "depends_on", "dependents", "original_flag", "insight_id"]) {
          expect(side, where).not.toHaveProperty(key);
        }
      }
    }
    const flag = (key: string) => updates.find((a) => a.object.name === key);
    // A changed rollout: its version and the stored filters are preconditions, what it depends on requires.
    expect(flag("new-checkout")?.preconditions).toMatchObject({ version: expect.any(Number) });
    expect(flag("new-checkout")?.preconditions?.original_flag).toHaveProperty("filters");
    expect(flag("new-checkout")?.requires).toContainEqual(
      expect.objectContaining({ kind: "feature_flag", name: "checkout-v1", id: expect.any(Number) }),
    );
    // Turned off: after the flags that depend on it.
    const off = flag("checkout-v1") as Action & { required_by?: Json[] };
    expect(off.required_by?.map((r) => r.name).sort()).toEqual(["new-checkout", "search-v2"]);
    // The encrypted payload sent again is a secret beside the sides, never in them.
    const pricing = flag("pricing-config");
    expect(pricing?.sends).toMatchObject({
      filters: { payloads: { true: { $secret: "${PRICING_PAYLOAD}" } } },
    });
    expect(JSON.stringify(pricing)).not.toContain("tier");
    // An export's destination change: the service's companions (type, integration) are sent beside it.
    const exported = updates.find((a) => a.object.name === "events-to-s3");
    expect(exported?.after).toEqual({
      interval: "day",
      destination: { config: { prefix: "posthog/production/events/v2/" } },
    });
    expect(exported?.sends).toEqual({ destination: { type: "AwsS3", config: {}, integration_id: 1 } });
    const tile = updates.find((a) => a.action === "update_tile");
    expect(tile?.preconditions).toEqual({ insight_id: expect.any(Number) });
  });
});
