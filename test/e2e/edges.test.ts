/**
 * Round trips of the fields and flows most likely to plan forever or to do more than asked: tag case,
 * timestamps, HogQL and filters, secret rotation, a destination type change (replace), unpause with
 * backfill, --target, and a batch export renamed through its pin.
 */
import { describe, expect, it } from "vitest";
import {
  type Json,
  POSTGRES_EXPORT_ID,
  recordingProxy,
  S3_EXPORT_ID,
  useEmulator,
} from "../support/emulator.js";

const h = useEmulator();
const SECRETS = { E_AK: "SECRET_VALUE_zq9x_edge_ak", E_SK: "SECRET_VALUE_zq9x_edge_sk" };

const converges = async (paths: string[], env: Record<string, string> = SECRETS, extra: string[] = []) => {
  const apply = await h.cli(["apply", "--auto-approve", ...extra, ...paths], env);
  expect(apply.stdout).not.toContain("✗");
  expect(apply.code).toBe(0);
  const plan = await h.cli(["plan", "--detailed-exitcode", ...paths], env);
  expect(plan.stdout).toContain("No changes");
  expect(plan.code).toBe(0);
  return apply;
};

const exportYaml = (body: string) => `project: 12345\nbatch_exports:\n${body}`;

describe("fields that must not plan forever", () => {
  it("tags compare as a case-insensitive set; timestamps as instants", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    tags: [Product, KPI]\n");
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    h.write(
      "p/d.yaml",
      exportYaml("  - name: Events to S3\n    start_at: 2026-03-01T01:00:00+01:00\n    end_at: null\n"),
    );
    await converges(["p"]);
    h.write("p/d.yaml", exportYaml("  - name: Events to S3\n    start_at: 2026-03-01T00:00:00Z\n"));
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("property filters round-trip on an events export", async () => {
    h.write(
      "p/b.yaml",
      exportYaml(
        [
          "  - name: Events to S3",
          "    filters:",
          "      - key: $browser",
          "        operator: exact",
          "        type: event",
          "        value: [Firefox]",
          "",
        ].join("\n"),
      ),
    );
    await converges(["p"]);
  });

  it("a hogql export (behind its flag) round-trips its query, keys and mode", async () => {
    await h.seed({ base: "default", service: { feature_flags: { "hogql-batch-exports": true } } });
    h.write(
      "p/b.yaml",
      exportYaml(
        [
          "  - name: Merged persons",
          "    model: hogql",
          "    interval: day",
          "    hogql_query: |",
          "      SELECT person_id, max(timestamp) AS last_seen",
          "      FROM events",
          "      GROUP BY person_id",
          "    primary_key: [person_id]",
          "    version_key: [last_seen]",
          "    incremental_mode: MERGE",
          "    destination:",
          "      type: NoOp",
          "",
        ].join("\n"),
      ),
    );
    await converges(["p"]);
    const pulled = await h.cli(["pull", "--project", "12345", "--out", "pulled", "--kind", "batch_exports"]);
    expect(pulled.code).toBe(0);
    expect((await h.cli(["plan", "--detailed-exitcode", "pulled"])).code).toBe(0);
  });

  it("2025 rules: an events export's hogql_query round-trips (the path projects with such exports keep)", async () => {
    await h.seed({ base: "default", service: { rules: "2025" } });
    h.write(
      "p/b.yaml",
      exportYaml(
        [
          "  - name: Events to S3",
          "    hogql_query: |",
          "      SELECT event, timestamp, distinct_id",
          "      FROM events",
          "",
        ].join("\n"),
      ),
    );
    await converges(["p"]);
  });

  it("an empty filters list is a note, not a change planned forever", async () => {
    h.write("p/b.yaml", exportYaml("  - name: Events to S3\n    filters: []\n"));
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(0);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

describe("secrets and destinations", () => {
  // Persons to Postgres predates integrations: its user and password are inline secrets, which the
  // newest service still takes when such an export is edited.
  const pg = (table: string, extra = "") =>
    exportYaml(
      [
        "  - name: Persons to Postgres",
        extra,
        "    destination:",
        "      type: Postgres",
        "      config:",
        "        host: db.example.com",
        "        database: analytics",
        `        table_name: ${table}`,
        `        user: \${E_AK}`,
        `        password: \${E_SK}`,
        "",
      ]
        .filter((line) => line !== "")
        .join("\n")
        .concat("\n"),
    );

  it("--rotate-secrets sends the secrets again; without it, unchanged secrets are not sent", async () => {
    h.write("p/b.yaml", pg("persons"));
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    const rotated = { E_AK: "SECRET_VALUE_zq9x_rot_ak", E_SK: "SECRET_VALUE_zq9x_rot_sk" };
    expect((await h.cli(["plan", "--detailed-exitcode", "--rotate-secrets", "p"], rotated)).code).toBe(2);
    await converges(["p"], rotated, ["--rotate-secrets"].slice(0, 1));
    const config = (await h.state()).batch_exports.find((b: Json) => b.id === POSTGRES_EXPORT_ID).destination
      .config;
    expect([config.user, config.password]).toEqual([rotated.E_AK, rotated.E_SK]);
  });

  it("secrets are sent only on create, rotation or a destination change; apply needs them only then", async () => {
    const proxy = await recordingProxy(() => h.url);
    try {
      const via = { POSTHOG_HOST: proxy.url };
      h.write("p/b.yaml", pg("persons", "    interval: hour"));
      const noSecrets = await h.cli(["apply", "--auto-approve", "p"], via);
      expect(noSecrets.code).toBe(0);
      const first = proxy.recorded.filter((r) => r.method === "PATCH").map((r) => JSON.parse(r.body));
      expect(first).toEqual([{ interval: "hour" }]);

      h.write("p/b.yaml", pg("changed"));
      expect((await h.cli(["apply", "--auto-approve", "p"], via)).code).toBe(1);
      expect((await h.cli(["apply", "--auto-approve", "p"], { ...via, ...SECRETS })).code).toBe(0);
      const second = proxy.recorded.filter((r) => r.method === "PATCH").map((r) => JSON.parse(r.body));
      expect(second).toHaveLength(2);
      // Every destination write carries the type and a config (the newest service answers 500 without).
      expect(second[1].destination).toEqual({
        type: "Postgres",
        config: { table_name: "changed", user: SECRETS.E_AK, password: SECRETS.E_SK },
      });
    } finally {
      await proxy.close();
    }
  });

  it("a destination type change needs --force and replaces the export: create, then delete", async () => {
    h.write(
      "p/b.yaml",
      exportYaml(
        "  - name: Persons to Postgres\n    model: persons\n    interval: day\n    paused: true\n    destination:\n      type: NoOp\n",
      ),
    );
    const refused = await h.cli(["plan", "p"]);
    expect(refused.code).toBe(1);
    const plan = JSON.parse((await h.cli(["plan", "--force", "--format", "json", "p"])).stdout);
    expect(plan.actions.map((a: Json) => a.action)).toEqual(["create", "delete"]);
    await converges(["p"], SECRETS, ["--force"]);
    const state = await h.state();
    const live = state.batch_exports.filter((b: Json) => b.name === "Persons to Postgres" && !b.deleted);
    expect(live).toHaveLength(1);
    expect(live[0].id).not.toBe(POSTGRES_EXPORT_ID);
    expect(live[0].destination.type).toBe("NoOp");
  });
});

describe("flows", () => {
  it("unpause with backfill_on_unpause, then no changes", async () => {
    h.write(
      "p/b.yaml",
      exportYaml("  - name: Persons to Postgres\n    paused: false\n    backfill_on_unpause: true\n"),
    );
    await converges(["p"]);
    const live = (await h.state()).batch_exports.find((b: Json) => b.id === POSTGRES_EXPORT_ID);
    expect(live.paused).toBe(false);
  });

  it("--target narrows the plan and the apply to the named objects", async () => {
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: false\n  - name: Revenue\n    pinned: true\n",
    );
    // One value per --target: paths after it are still paths.
    const apply = await h.cli(["apply", "--auto-approve", "--target", "dashboard/Revenue", "p"]);
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    const state = await h.state();
    expect(state.dashboards.find((d: Json) => d.id === 3).pinned).toBe(true);
    expect(state.dashboards.find((d: Json) => d.id === 1).pinned).toBe(true);
    expect((await h.cli(["plan", "p", "--detailed-exitcode", "--target=dashboard/Revenue"])).code).toBe(0);
    const two = await h.cli([
      "plan",
      "--target",
      "dashboard/Revenue",
      "--target",
      "dashboard/Product KPIs",
      "p",
    ]);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toContain("Product KPIs");
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(2);
  });

  it("a batch export renamed through its id pin is updated in place", async () => {
    h.write("p/b.yaml", exportYaml(`  - id: ${S3_EXPORT_ID}\n    name: Events to S3 (renamed)\n`));
    await converges(["p"]);
    const names = (await h.state()).batch_exports.map((b: Json) => b.name);
    expect(names).toContain("Events to S3 (renamed)");
    expect(names).not.toContain("Events to S3");
  });

  it("collaborators without the access control feature are a note, not planned forever", async () => {
    const state = await h.state();
    for (const org of state.organizations) {
      org.features.access_control = false; // the newest service's feature
      org.features.advanced_permissions = false; // the older one's
    }
    await h.seed(state);
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - name: Locked\n    restriction_level: only_collaborators\n    collaborators:\n      - user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000002\n",
    );
    const first = await h.cli(["apply", "--auto-approve", "p"]);
    expect(first.stdout).toContain("access control feature");
    expect(first.stdout).not.toContain("✗");
    expect(first.code).toBe(0);
    const again = await h.cli(["apply", "--auto-approve", "p"]);
    expect(again.code).toBe(0);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});
