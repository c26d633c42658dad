import { describe, expect, it } from "vitest";
import type { DesiredBatchExport } from "../../src/kinds/batch-export/index.js";
import type { DesiredDashboard } from "../../src/kinds/dashboard/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { buildPlan } from "../../src/plan/build.js";
import {
  desiredBatchExport,
  desiredDashboard,
  desiredProject,
  liveDashboard,
  liveProject,
  options,
  s3Destination,
  secret,
} from "../builders.js";
import { echoBatchExport, echoDashboard } from "./service-echo.js";

/** Plans X from nothing, "applies" it through the service echo, and plans X again: no action. */
function roundTrip(desired: { dashboards?: DesiredDashboard[]; batchExports?: DesiredBatchExport[] }) {
  const first = buildPlan(KINDS, [desiredProject(desired)], [liveProject()], options()).plan;
  const creates = first.actions.filter((a) => a.action === "create");
  expect(creates.length).toBeGreaterThan(0);
  const live = liveProject({
    dashboards: creates.filter((a) => a.object.kind === "dashboard").map(echoDashboard),
    batchExports: creates.filter((a) => a.object.kind === "batch_export").map(echoBatchExport),
  });
  return buildPlan(KINDS, [desiredProject(desired)], [live], options());
}

describe("no perpetual diff after apply", () => {
  it.each([
    ["tags as a case-insensitive set", { tags: ["kpi", "growth"] }],
    ["description with a trailing newline", { description: "Growth review\nweekly\n" }],
    ["restriction level", { restriction_level: 37 as const }],
    ["pinned", { pinned: true }],
  ])("dashboard: %s", (_label, overrides) => {
    const { plan, errors } = roundTrip({ dashboards: [desiredDashboard(overrides)] });
    expect(errors).toEqual([]);
    expect(plan.actions).toEqual([]);
  });

  it.each([
    ["timestamps as instants", { start_at: "2026-01-01T00:00:00Z", end_at: "2027-01-01T00:00:00+00:00" }],
    [
      "scalars returned as strings",
      {
        destination: s3Destination({
          config: {
            bucket_name: "b",
            region: "r",
            prefix: "p",
            max_file_size_mb: 5,
            use_virtual_style_addressing: true,
          },
        }),
      },
    ],
    [
      "server-added config defaults",
      { destination: s3Destination({ config: { bucket_name: "b", region: "r", prefix: "p" } }) },
    ],
    ["empty filters returned as null", { filters: [] }],
    ["HogQL whitespace", { hogql_query: "SELECT event\n  FROM events\n" }],
    ["paused on create", { paused: true }],
    [
      "the integration shown as destination.integration",
      {
        destination: {
          type: "Databricks" as const,
          config: { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" },
          secrets: {},
          integration: 7,
        },
      },
    ],
    [
      "AwsS3 with its integration, legacy_parquet_extension added by the service",
      {
        destination: {
          type: "AwsS3" as const,
          config: {
            bucket_name: "b",
            region: "r",
            prefix: "p/",
            file_format: "Parquet",
            compression: "zstd",
          },
          secrets: {},
          integration: 1,
        },
      },
    ],
    [
      "weekly schedule: timezone null shown as UTC, offset_day 0 echoed",
      { interval: "week" as const, timezone: null, offset_hour: 3 },
    ],
    ["daily schedule at the default hour", { interval: "day" as const, timezone: "UTC", offset_hour: 0 }],
    [
      "hogql model with its keys and mode",
      {
        model: "hogql" as const,
        hogql_query: "SELECT person_id FROM events",
        primary_key: ["person_id"],
        incremental_mode: "MERGE" as const,
      },
    ],
    [
      "nested secrets stripped",
      {
        destination: {
          type: "Redshift" as const,
          config: { host: "h", port: 5439, database: "d", copy_inputs: { s3_bucket: "b", region_name: "r" } },
          secrets: {
            user: secret("PG_USER"),
            password: secret("PG_PASSWORD"),
            "copy_inputs.authorization.aws_access_key_id": secret("AWS_ACCESS_KEY_ID"),
          },
        },
      },
    ],
  ])("batch export: %s", (_label, overrides) => {
    const { plan, errors } = roundTrip({ batchExports: [desiredBatchExport(overrides)] });
    expect(errors).toEqual([]);
    expect(plan.actions).toEqual([]);
  });

  it("still sees a real change behind a normalised one", () => {
    const live = liveDashboard({ tags: ["KPI"] });
    const { plan } = buildPlan(
      KINDS,
      [desiredProject({ dashboards: [desiredDashboard({ tags: ["kpi", "new"] })] })],
      [liveProject({ dashboards: [live] })],
      options(),
    );
    expect(plan.actions[0]?.changes).toEqual([{ path: "tags", before: ["kpi"], after: ["kpi", "new"] }]);
  });
});
