/**
 * The 2025 rules (`service: { rules: "2025" }`), for tests of exports that predate the newest service:
 * legacy S3 with inline keys, the older key sets, keys without scopes, ADVANCED_PERMISSIONS, and the
 * older answers the newest service changed. Each test pins one older behaviour.
 */
import { describe, expect, it } from "vitest";
import { P, POSTGRES_EXPORT_ID, reseed, S3_EXPORT_ID, USER_UUIDS, useEmulator } from "./helpers.js";
import { schemaErrors } from "./openapi.js";

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
    expect(res.text).not.toContain("emulator-secret-access-key");
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
    expect(stored.destination.config.aws_secret_access_key).toBe("emulator-secret-access-key");
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
    await reseed(h, (s) => s.api_keys.push({ key: "phx_legacy", user: 1, scopes: [] }));
    const res = await h.api("POST", `${P}/dashboards/`, { name: "x" }, { key: "phx_legacy" });
    expect(res.status).toBe(201);
  });

  it("makes restriction level 37 effective through ADVANCED_PERMISSIONS, not ACCESS_CONTROL", async () => {
    const C = `${P}/dashboards/3/collaborators/`;
    await reseed(h, (s) => {
      for (const o of s.organizations) o.features.access_control = false;
    });
    expect((await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 37 })).status).toBe(201);
    await reseed(h, (s) => {
      for (const o of s.organizations) o.features.advanced_permissions = false;
    });
    const res = await h.api("POST", C, { user_uuid: USER_UUIDS.dave, level: 37 });
    expect(res.body.detail).toBe("Cannot add collaborators to a dashboard on the lowest restriction level.");
    const org = await h.api("GET", "/api/organizations/@current/");
    expect(org.body.available_product_features.map((f: { key: string }) => f.key)).toEqual(["tagging"]);
  });
});
