/**
 * The 2025 rules (`service: { rules: "2025" }`), for tests of exports that predate the newest service:
 * legacy S3 with inline keys, the older key sets, keys without scopes, ADVANCED_PERMISSIONS, and the
 * older answers the newest service changed. Each test pins one older behaviour.
 */
import { describe, expect, it } from "vitest";
import { OLD_RUN_ID, SEED_CREDENTIALS } from "../src/default-seed.js";
import { schemaErrors } from "./openapi.js";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, USER_UUIDS, useEmulator } from "./support/harness.js";

const h = useEmulator({ service: { rules: "2025" } });
const B = `${P}/batch_exports/`;

const s3 = (config: Record<string, unknown> = {}) => ({
  name: "Nightly S3",
  interval: "day",
  destination: {
    type: "S3",
    config: {
      bucket_name: "b",
      region: "eu-west-1",
      prefix: "p/",
      aws_access_key_id: "AKIA1",
      aws_secret_access_key: "shh",
      ...config,
    },
  },
});

describe("batch exports under the 2025 rules", () => {
  it("seed the legacy S3 export with inline keys and answer without the newest fields", async () => {
    const res = await h.api("GET", `${B}${S3_EXPORT_ID}/`);
    expect(res.status).toBe(200);
    expect(schemaErrors("BatchExport", res.body)).toEqual([]);
    expect(res.body.destination).toEqual({
      type: "S3",
      config: {
        bucket_name: "acme-events",
        region: "us-east-1",
        prefix: "posthog/events/",
        file_format: "Parquet",
        compression: "zstd",
      },
      integration: null,
    });
    expect(res.text).not.toContain(SEED_CREDENTIALS.s3SecretKey);
    for (const key of ["timezone", "offset_day", "offset_hour", "incremental_mode", "hogql_query"]) {
      expect(res.body).not.toHaveProperty(key);
    }
  });

  it("create S3 with inline keys (201), strip them from the reply and keep them in the store", async () => {
    const res = await h.api("POST", B, s3());
    expect(res.status).toBe(201);
    expect(schemaErrors("BatchExport", res.body)).toEqual([]);
    expect(res.body.destination.config).toEqual({ bucket_name: "b", region: "eu-west-1", prefix: "p/" });
    const state = await h.control("GET", "state");
    const stored = state.body.batch_exports.find((b: { id: string }) => b.id === res.body.id);
    expect(stored.destination.config.aws_secret_access_key).toBe("shh");
  });

  it("validate the older key sets, coercions and choices", async () => {
    const post = (body: unknown) => h.api("POST", B, body);
    const aws = await post({ ...s3(), destination: { type: "AwsS3", config: {} } });
    expect(aws.body).toEqual({
      type: "validation_error",
      code: "invalid_choice",
      detail: '"AwsS3" is not a valid choice.',
      attr: "destination__type",
    });
    expect((await post(s3({ colour: "red", aaa: 1 }))).body.detail).toBe(
      "Configuration has unknown field/s: 'aaa', 'colour'",
    );
    const missing = await post({
      ...s3(),
      destination: { type: "S3", config: { bucket_name: "b", region: "r" } },
    });
    expect(missing.body.detail).toBe("Configuration missing required field: 'prefix'");
    expect((await post(s3({ max_file_size_mb: "lots" }))).body.detail).toBe(
      "Configuration has invalid type: got 'str', expected 'int'",
    );
    const coerced = await post(s3({ max_file_size_mb: "64", use_virtual_style_addressing: "true" }));
    expect(coerced.body.destination.config.max_file_size_mb).toBe(64);
    expect(coerced.body.destination.config.use_virtual_style_addressing).toBe(true);
    expect((await post({ ...s3(), interval: "every 5 minutes" })).status).toBe(403);
    // Any URL: the allow-list is newest.
    const http = await post({
      name: "h",
      interval: "hour",
      destination: { type: "HTTP", config: { url: "https://hooks.example.com/in", token: "t" } },
    });
    expect(http.status).toBe(201);
  });

  it("PATCH keeps omitted secrets and refuses a type change", async () => {
    const patch = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "S3", config: { prefix: "new/" } },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.destination.config.prefix).toBe("new/");
    const state = await h.control("GET", "state");
    const stored = state.body.batch_exports.find((b: { id: string }) => b.id === S3_EXPORT_ID);
    expect(stored.destination.config.aws_secret_access_key).toBe(SEED_CREDENTIALS.s3SecretKey);
    const type = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "Postgres", config: {} },
    });
    expect(type.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail:
        "Cannot change destination type from 'S3' to 'Postgres'. Delete this batch export and create a new one with the new destination type.",
      attr: "destination",
    });
  });

  it("PUT Postgres needs the inline credentials", async () => {
    const noSecret = await h.api("PUT", `${B}${POSTGRES_EXPORT_ID}/`, {
      name: "x",
      interval: "day",
      model: "persons",
      destination: { type: "Postgres", config: { host: "h", database: "d" } },
    });
    expect(noSecret.body.detail).toBe("Configuration missing required field: 'user'");
  });

  it("need an integration for Databricks on every destination write, and keep S3's when left out", async () => {
    const lake = {
      name: "Lake",
      interval: "hour",
      destination: {
        type: "Databricks",
        config: { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" },
      },
    };
    const none = await h.api("POST", B, lake);
    expect(none.body.detail).toBe("Integration is required for Databricks batch exports");
    const created = await h.api("POST", B, {
      ...lake,
      destination: { ...lake.destination, integration_id: 7 },
    });
    expect(created.body.destination.integration).toBe(7);
    const bare = await h.api("PATCH", `${B}${created.body.id}/`, {
      destination: { type: "Databricks", config: { table_name: "t" } },
    });
    expect(bare.body.detail).toBe("Integration is required for Databricks batch exports");
    const url = `${B}${S3_EXPORT_ID}/`;
    const set = await h.api("PATCH", url, { destination: { type: "S3", integration_id: 1 } });
    expect(set.body.destination.integration).toBe(1);
    const kept = await h.api("PATCH", url, { destination: { type: "S3", config: { prefix: "k/" } } });
    expect(kept.body.destination.integration).toBe(1);
    const cleared = await h.api("PATCH", url, { destination: { type: "S3", integration_id: null } });
    expect(cleared.body.destination.integration).toBeNull();
  });
});

describe("access under the 2025 rules", () => {
  it("lets a key without scopes do anything", async () => {
    await h.reseed((s) => s.api_keys.push({ key: "phx_legacy", user: 1, scopes: [] }));
    const res = await h.api("POST", `${P}/dashboards/`, { name: "x" }, { key: "phx_legacy" });
    expect(res.status).toBe(201);
  });

  it("makes restriction level 37 effective through ADVANCED_PERMISSIONS, not ACCESS_CONTROL", async () => {
    const C = `${P}/dashboards/3/collaborators/`;
    await h.reseed((s) => {
      for (const o of s.organizations) o.features.access_control = false;
    });
    expect((await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 37 })).status).toBe(201);
    await h.reseed((s) => {
      for (const o of s.organizations) o.features.advanced_permissions = false;
    });
    const res = await h.api("POST", C, { user_uuid: USER_UUIDS.dave, level: 37 });
    expect(res.body.detail).toBe("Cannot add collaborators to a dashboard on the lowest restriction level.");
    const org = await h.api("GET", "/api/organizations/@current/");
    expect(org.body.available_product_features.map((f: { key: string }) => f.key)).toEqual(["tagging"]);
  });
});

describe("runs, backfills and logs under the 2025 rules", () => {
  const R = `${B}${S3_EXPORT_ID}/runs/`;

  it("bound only the runs list by the 7-day window, with no status filter", async () => {
    expect((await h.api("GET", R)).body.results).toHaveLength(48);
    expect((await h.api("GET", `${R}?status=Failed`)).body.results).toHaveLength(48);
    const old = await h.api("GET", `${R}${OLD_RUN_ID}/`);
    expect(old.status).toBe(200);
    const logs = await h.api("GET", `${R}${OLD_RUN_ID}/logs/`);
    expect(logs.status).toBe(200);
    expect(logs.body.results.every((e: { instance_id: string }) => e.instance_id === OLD_RUN_ID)).toBe(true);
    const retry = await h.api("POST", `${R}${OLD_RUN_ID}/retry/`);
    expect(retry.status).toBe(200);
    expect(retry.body.backfill_id).toMatch(new RegExp(`^${S3_EXPORT_ID}-Backfill-.*\\+00:00-.*\\+00:00$`));
  });

  it("take datetimes for every interval, refuse a missing end with 400, answer 200 with the workflow id", async () => {
    const daily = `${B}${POSTGRES_EXPORT_ID}/backfills/`;
    const res = await h.api("POST", daily, {
      start_at: "2025-01-01T00:00:00Z",
      end_at: "2025-01-03T00:00:00Z",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      backfill_id: `${POSTGRES_EXPORT_ID}-Backfill-2025-01-01T00:00:00+00:00-2025-01-03T00:00:00+00:00`,
    });
    const noEnd = await h.api("POST", daily, { start_at: "2025-01-01T00:00:00Z" });
    expect(noEnd.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail: "Backfilling a BatchExport with no end date is not allowed",
      attr: null,
    });
  });

  it("take log levels as a list (repeat the parameter)", async () => {
    const L = `${B}${S3_EXPORT_ID}/logs/?limit=500&level=ERROR&level=warning`;
    const levels = new Set((await h.api("GET", L)).body.results.map((e: { level: string }) => e.level));
    expect(levels).toEqual(new Set(["ERROR", "WARNING"]));
  });
});

describe("dashboards under the 2025 rules", () => {
  it("restore only by a PATCH whose body is exactly one false-ish deleted, and show no folder", async () => {
    await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true });
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { deleted: false, name: "x" })).status).toBe(404);
    expect((await h.api("PUT", `${P}/dashboards/2/`, { deleted: false })).status).toBe(404);
    const restore = await h.api("PATCH", `${P}/dashboards/2/`, { deleted: false });
    expect(restore.status).toBe(200);
    expect(restore.body.name).toBe("Marketing Overview");
    expect(restore.body).not.toHaveProperty("folder");
  });
});
