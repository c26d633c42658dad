/**
 * Destinations whose credentials live in an Integration (Databricks, AzureBlob): `integration_id` is
 * write-only and shows as `destination.integration`; the service refuses their destination writes
 * without one, and keeps the integration of other writes that leave it out.
 */
import { describe, expect, it } from "vitest";
import { P, S3_EXPORT_ID, useEmulator } from "./helpers.js";
import { schemaErrors } from "./openapi.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;

const DATABRICKS = { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" };
const databricks = (destination: Record<string, unknown> = {}) => ({
  name: "Lake",
  interval: "hour",
  destination: { type: "Databricks", config: DATABRICKS, ...destination },
});

describe("batch export integrations", () => {
  it("creates a Databricks export with its integration, shown as destination.integration", async () => {
    const res = await h.api("POST", B, databricks({ integration_id: 7 }));
    expect(res.status).toBe(201);
    expect(schemaErrors("BatchExport", res.body)).toEqual([]);
    expect(res.body.destination).toEqual({ type: "Databricks", config: DATABRICKS, integration: 7 });
    const got = await h.api("GET", `${B}${res.body.id}/`);
    expect(got.body.destination.integration).toBe(7);
    expect(got.body.destination).not.toHaveProperty("integration_id");
  });

  it("accepts AzureBlob with its config fields and refuses secrets or unknown keys", async () => {
    const config = {
      container_name: "exports",
      prefix: "posthog/",
      compression: "gzip",
      file_format: "JSONLines",
      max_file_size_mb: "50",
      legacy_parquet_extension: false,
    };
    const body = {
      name: "Blob",
      interval: "day",
      destination: { type: "AzureBlob", config, integration_id: 3 },
    };
    const res = await h.api("POST", B, body);
    expect(res.status).toBe(201);
    expect(schemaErrors("BatchExport", res.body)).toEqual([]);
    expect(res.body.destination).toEqual({
      type: "AzureBlob",
      config: { ...config, max_file_size_mb: 50 },
      integration: 3,
    });
    const bad = await h.api("POST", B, {
      ...body,
      destination: { ...body.destination, config: { ...config, connection_string: "x" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Configuration has unknown field/s: 'connection_string'");
    const missing = await h.api("POST", B, {
      ...body,
      destination: { type: "AzureBlob", config: { prefix: "p" }, integration_id: 3 },
    });
    expect(missing.body.detail).toBe("Configuration missing required field: 'container_name'");
  });

  it.each([
    ["Databricks", DATABRICKS, "Integration is required for Databricks batch exports"],
    ["AzureBlob", { container_name: "c" }, "Integration is required for Azure Blob batch exports"],
  ])("refuses a %s create without an integration", async (type, config, detail) => {
    for (const extra of [{}, { integration_id: null }]) {
      const res = await h.api("POST", B, {
        name: "X",
        interval: "hour",
        destination: { type, config, ...extra },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        type: "validation_error",
        code: "invalid_input",
        detail,
        attr: "destination",
      });
    }
    const list = await h.api("GET", B);
    expect(list.body.results.map((b: { name: string }) => b.name)).not.toContain("X");
  });

  it.each([
    [0, "does_not_exist", 'Invalid pk "0" - object does not exist.'],
    [-4, "does_not_exist", 'Invalid pk "-4" - object does not exist.'],
    ["seven", "incorrect_type", "Incorrect type. Expected pk value, received str."],
    [1.5, "incorrect_type", "Incorrect type. Expected pk value, received float."],
    [true, "incorrect_type", "Incorrect type. Expected pk value, received bool."],
  ])("refuses integration_id %j with the related field's error", async (value, code, detail) => {
    const res = await h.api("POST", B, databricks({ integration_id: value }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ type: "validation_error", code, detail, attr: "destination__integration_id" });
  });

  it("changes the integration by PATCH and PUT, and keeps it when a write leaves it out", async () => {
    const created = await h.api("POST", B, databricks({ integration_id: "7" }));
    expect(created.body.destination.integration).toBe(7);
    const url = `${B}${created.body.id}/`;
    const patched = await h.api("PATCH", url, { destination: { type: "Databricks", integration_id: 8 } });
    expect(patched.status).toBe(200);
    expect(patched.body.destination).toEqual({ type: "Databricks", config: DATABRICKS, integration: 8 });
    expect((await h.api("PATCH", url, { name: "Lake 2" })).body.destination.integration).toBe(8);
    // Like the service, a Databricks destination write must name the integration, PATCH included.
    const bare = await h.api("PATCH", url, {
      destination: { type: "Databricks", config: { table_name: "t" } },
    });
    expect(bare.status).toBe(400);
    expect(bare.body.detail).toBe("Integration is required for Databricks batch exports");
    const put = await h.api("PUT", url, databricks({ integration_id: 9 }));
    expect(put.status).toBe(200);
    expect(put.body.destination.integration).toBe(9);
  });

  it("keeps the integration of other types when a destination write leaves it out", async () => {
    const url = `${B}${S3_EXPORT_ID}/`;
    const set = await h.api("PATCH", url, { destination: { type: "S3", integration_id: 5 } });
    expect(set.status).toBe(200);
    expect(set.body.destination.integration).toBe(5);
    const kept = await h.api("PATCH", url, { destination: { type: "S3", config: { prefix: "new/" } } });
    expect(kept.body.destination.integration).toBe(5);
    expect(kept.body.destination.config.prefix).toBe("new/");
    const cleared = await h.api("PATCH", url, { destination: { type: "S3", integration_id: null } });
    expect(cleared.body.destination.integration).toBeNull();
  });
});
