/**
 * Destinations whose credentials live in a PostHog integration, through the real CLI and the emulator
 * in its default (newest) mode: AwsS3 and S3Compatible exports created with their integration, in sync
 * afterwards, a prefix PATCHed (the body names type, config and integration_id); a Databricks export
 * moved to another integration; an unknown or wrong-kind integration refused by `plan` at its file:line
 * before any write (with one integrations list read, and none for files that name no integration);
 * the deprecated `integration_id` spelling; pull → plan empty for every integration-backed type.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Json, P, recordingProxy, useEmulator } from "../support/emulator.js";

const h = useEmulator();

const lakeConfig = (integration: string, table = "events") => `project: 12345
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

const s3Config = (prefix: string, integrations = { aws: 1, compatible: 2 }) => `project: 12345
batch_exports:
  - name: aws-archive
    model: events
    interval: day
    timezone: Europe/Berlin
    offset_hour: 5
    destination:
      type: AwsS3
      integration: ${integrations.aws}
      config:
        bucket_name: acme-archive
        region: eu-central-1
        prefix: ${prefix}
        file_format: Parquet
        compression: zstd
  - name: r2-archive
    model: events
    interval: week
    offset_day: 1
    offset_hour: 2
    destination:
      type: S3Compatible
      integration: ${integrations.compatible}
      config:
        bucket_name: acme-r2
        region: auto
        prefix: ${prefix}
        use_virtual_style_addressing: true
`;

const live = async (name: string) =>
  (await h.state()).batch_exports.filter((b: Json) => b.name === name && !b.deleted);
const writes = async () => (await h.requests()).filter((r) => r.method !== "GET");

describe("AwsS3 and S3Compatible exports with integrations", () => {
  it("create, plan empty, then a changed prefix is one PATCH each with type, config and integration_id", async () => {
    h.write("posthog/s3.yaml", s3Config("events/"));
    await h.clearRequests();
    const created = await h.cli(["apply", "--auto-approve", "posthog"]);
    expect(created.stdout).not.toContain("✗");
    expect(created.code).toBe(0);
    expect((await h.requests()).filter((r) => r.status >= 400)).toEqual([]);
    const [aws] = await live("aws-archive");
    const [r2] = await live("r2-archive");
    expect([aws.destination.type, aws.destination.integration]).toEqual(["AwsS3", 1]);
    expect([r2.destination.type, r2.destination.integration]).toEqual(["S3Compatible", 2]);
    expect([aws.timezone, aws.interval_offset]).toEqual(["Europe/Berlin", 5 * 3600]);
    expect(r2.interval_offset).toBe(86_400 + 2 * 3600);
    // The service adds legacy_parquet_extension: false on create; it is not planned forever.
    expect(aws.destination.config.legacy_parquet_extension).toBe(false);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);

    h.write("posthog/s3.yaml", s3Config("events-v2/"));
    const proxy = await recordingProxy(() => h.url);
    try {
      const moved = await h.cli(["apply", "--auto-approve", "posthog"], { POSTHOG_HOST: proxy.url });
      expect(moved.stdout).not.toContain("✗");
      expect(moved.code).toBe(0);
      const patches = proxy.recorded
        .filter((r) => r.method === "PATCH")
        .map((r) => JSON.parse(r.body))
        .sort((a, b) => a.destination.type.localeCompare(b.destination.type));
      expect(patches).toEqual([
        { destination: { type: "AwsS3", config: { prefix: "events-v2/" }, integration_id: 1 } },
        { destination: { type: "S3Compatible", config: { prefix: "events-v2/" }, integration_id: 2 } },
      ]);
    } finally {
      await proxy.close();
    }
    expect((await live("aws-archive"))[0].destination.config.prefix).toBe("events-v2/");
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
  });

  it.each([
    [
      "an unknown integration",
      { aws: 404, compatible: 2 },
      10,
      /destination\.integration 404 is not an integration of project 12345; its aws-s3 integration: 1 /,
    ],
    [
      "another project's integration",
      { aws: 10, compatible: 2 },
      10,
      /destination\.integration 10 is not an integration of project 12345/,
    ],
    [
      "a wrong-kind integration",
      { aws: 1, compatible: 1 },
      24,
      /destination\.integration 1 \("acme-prod[^"]*"\) is an aws-s3 integration, but destination type S3Compatible needs an s3-compatible integration; its s3-compatible integration: 2 /,
    ],
  ])("%s fails the plan at its file:line, before any write", async (_label, ids, line, message) => {
    h.write("posthog/s3.yaml", s3Config("events/", ids));
    await h.clearRequests();
    for (const command of ["plan", "apply"]) {
      const run = await h.cli(
        command === "apply" ? ["apply", "--auto-approve", "posthog"] : ["plan", "posthog"],
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(new RegExp(`posthog/s3\\.yaml:${line}:\\d+: error: batch export`));
    }
    expect(await writes()).toEqual([]);
    // One integrations list per plan, nothing per export.
    const reads = (await h.requests()).filter((r) => r.path.includes("/integrations"));
    expect(reads.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${P}/integrations/`,
      `GET ${P}/integrations/`,
    ]);
  });

  it("reads no integrations when no file names one", async () => {
    h.write("posthog/d.yaml", "project: 12345\nbatch_exports:\n  - name: Events to S3\n    paused: false\n");
    await h.clearRequests();
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
    expect((await h.requests()).some((r) => r.path.includes("integrations"))).toBe(false);
  });
});

describe("a Databricks export with its integration", () => {
  it("creates, stays in sync, and follows a changed integration (the alias integration_id too)", async () => {
    h.write("posthog/lake.yaml", lakeConfig("      integration_id: 7\n"));
    const created = await h.cli(["apply", "--auto-approve", "posthog"]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect((await live("Lake")).map((b: Json) => b.destination.integration)).toEqual([7]);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);

    h.write("posthog/lake.yaml", lakeConfig("      integration: 8\n"));
    const planned = await h.cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toMatch(/destination\.integration: 7 → 8/);
    expect((await h.cli(["apply", "--auto-approve", "posthog"])).code).toBe(0);
    expect((await live("Lake")).map((b: Json) => b.destination.integration)).toEqual([8]);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);

    // A config change alone still re-sends the integration, which Databricks writes require.
    h.write("posthog/lake.yaml", lakeConfig("      integration: 8\n", "events_v2"));
    const moved = await h.cli(["apply", "--auto-approve", "posthog"]);
    expect(moved.stdout).not.toContain("✗");
    expect(moved.code).toBe(0);
    const [after] = await live("Lake");
    expect([after.destination.config.table_name, after.destination.integration]).toEqual(["events_v2", 8]);
    expect((await h.cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
  });

  it("refuses a Databricks export without an integration before sending anything", async () => {
    h.write("posthog/lake.yaml", lakeConfig(""));
    await h.clearRequests();
    for (const command of ["validate", "plan"]) {
      const run = await h.cli([command, "posthog"]);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain("set destination.integration to its id");
    }
    expect(await h.requests()).toEqual([]);
    expect(await live("Lake")).toEqual([]);
  });
});

describe("pull then plan, newest types", () => {
  it("writes integration: and the schedule fields; the pulled files plan no change", async () => {
    const make = async (body: Json) => {
      const res = await h.api("POST", `${P}/batch_exports/`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const base = { model: "events", interval: "day", timezone: "America/New_York", offset_hour: 6 };
    await make({
      ...base,
      name: "pull-aws",
      destination: {
        type: "AwsS3",
        integration_id: 1,
        config: { bucket_name: "b", region: "r", prefix: "p/" },
      },
    });
    await make({
      name: "pull-r2",
      model: "events",
      interval: "week",
      offset_day: 3,
      offset_hour: 4,
      destination: {
        type: "S3Compatible",
        integration_id: 2,
        config: { bucket_name: "b", region: "auto", prefix: "p/", use_virtual_style_addressing: true },
      },
    });
    await make({
      ...base,
      name: "pull-snowflake",
      destination: {
        type: "Snowflake",
        integration_id: 4,
        config: { database: "d", warehouse: "w", schema: "s", table_name: "events" },
      },
    });
    await make({
      ...base,
      name: "pull-postgres",
      model: "persons",
      destination: { type: "Postgres", integration_id: 3, config: { database: "analytics", schema: "ph" } },
    });
    await make({
      ...base,
      name: "pull-bigquery",
      destination: { type: "BigQuery", integration_id: 5, config: { dataset_id: "ph", table_id: "events" } },
    });
    await make({
      ...base,
      name: "pull-azure",
      destination: { type: "AzureBlob", integration_id: 6, config: { container_name: "c", prefix: "p/" } },
    });
    await make({
      name: "pull-redshift",
      model: "events",
      interval: "hour",
      destination: {
        type: "Redshift",
        integration_id: 9,
        config: { database: "dev", host: "wg.example.com", properties_data_type: "super" },
      },
    });
    const pull = await h.cli(["pull", "--project", "12345", "--out", "pulled", "--kind", "batch_exports"]);
    expect(pull.code).toBe(0);
    const written = readFileSync(join(h.dir, "pulled/batch-exports.yaml"), "utf8");
    expect(written).toMatch(/name: pull-aws\n(.*\n)*?\s+timezone: America\/New_York\n\s+offset_hour: 6\n/);
    expect(written).toMatch(/name: pull-r2\n(.*\n)*?\s+offset_day: 3\n\s+offset_hour: 4\n/);
    expect(written).toMatch(/type: AwsS3\n\s+integration: 1\n/);
    expect(written).toMatch(/type: Snowflake\n\s+integration: 4\n/);
    // The credentials live in the integrations: no placeholder, no variable needed.
    expect(written).not.toMatch(/\$\{PULL_/);
    expect(written).not.toContain("integration_id");
    await h.clearRequests();
    const plan = await h.cli(["plan", "--detailed-exitcode", "pulled"]);
    expect(plan.stderr).not.toMatch(/error|warning/);
    expect(plan.stdout).toContain("No changes");
    expect(plan.code).toBe(0);
  });
});
