/**
 * Integrations (service-api.md §4 "Integrations"): the project's integrations list and retrieve, and
 * the rules of batch export writes per destination type: required on create, kept or re-sent on
 * updates that send `destination`, the kind each type needs, project-scoped primary keys.
 */
import { describe, expect, it } from "vitest";
import { INTEGRATION_IDS } from "../src/default-seed.js";
import { schemaErrors } from "./openapi.js";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;
const I = `${P}/integrations/`;

const error = (detail: string, attr: string | null = "destination", code = "invalid_input") => ({
  type: "validation_error",
  code,
  detail,
  attr,
});

const CONFIGS: Record<string, Record<string, unknown>> = {
  AwsS3: { bucket_name: "b", region: "r", prefix: "p" },
  S3Compatible: { bucket_name: "b", region: "r", prefix: "p" },
  Snowflake: { database: "d", warehouse: "w", schema: "s" },
  Databricks: { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" },
  AzureBlob: { container_name: "exports" },
  BigQuery: { dataset_id: "ds" },
  Postgres: { database: "d" },
  Redshift: { database: "d", host: "r.example.com" },
};
const body = (type: string, extra: Record<string, unknown> = {}) => ({
  name: `${type} export`,
  interval: "hour",
  destination: { type, config: CONFIGS[type], ...extra },
});

describe("the integrations endpoints", () => {
  it("list the project's integrations oldest first in the limit/offset envelope, by kind on request", async () => {
    const res = await h.api("GET", I);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(9);
    expect(res.body.results.map((i: { id: number; kind: string }) => [i.id, i.kind])).toEqual([
      [1, "aws-s3"],
      [2, "s3-compatible"],
      [3, "postgresql"],
      [4, "snowflake"],
      [5, "google-cloud-service-account"],
      [6, "azure-blob"],
      [7, "databricks"],
      [8, "databricks"],
      [9, "aws-redshift"],
    ]);
    expect(res.body.results[0]).toEqual({
      id: 1,
      kind: "aws-s3",
      config: { role_arn: "arn:aws:iam::123456789012:role/posthog-batch-exports" },
      created_at: "2025-02-01T09:00:00.000Z",
      created_by: expect.objectContaining({ id: 1, email: "alice@example.com" }),
      errors: "",
      display_name: "acme-prod (AWS role 'arn:aws:iam::123456789012:role/posthog-batch-exports')",
      files_write_requestable: false,
      installation_shared: null,
      installation_status: null,
    });
    const page = await h.api("GET", `${I}?limit=2&offset=2`);
    expect(page.body.results.map((i: { id: number }) => i.id)).toEqual([3, 4]);
    expect(new URL(page.body.next).search).toBe("?limit=2&offset=4");
    const databricks = await h.api("GET", "/api/environments/12345/integrations/?kind=databricks");
    expect(databricks.body.results.map((i: { id: number }) => i.id)).toEqual([7, 8]);
    const staging = await h.api("GET", "/api/projects/12346/integrations/");
    expect(staging.body.results.map((i: { id: number }) => i.id)).toEqual([INTEGRATION_IDS.stagingAwsS3]);
  });

  it("retrieve one of the project's, 404 for another project's", async () => {
    const one = await h.api("GET", `${I}4/`);
    expect(one.status).toBe(200);
    expect(one.body.display_name).toBe("acme (account: xy12345, password auth)");
    for (const id of [INTEGRATION_IDS.stagingAwsS3, INTEGRATION_IDS.globexAwsS3, 999, "abc"]) {
      expect((await h.api("GET", `${I}${id}/`)).status).toBe(404);
    }
  });

  it("need integration:read", async () => {
    await h.reseed((s) => s.api_keys.push({ key: "phx_exports", user: 1, scopes: ["batch_export:write"] }));
    const res = await h.api("GET", I, undefined, { key: "phx_exports" });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("API key missing required scope 'integration:read'");
    await h.reseed((s) => s.api_keys.push({ key: "phx_int", user: 1, scopes: ["integration:read"] }));
    expect((await h.api("GET", I, undefined, { key: "phx_int" })).status).toBe(200);
  });
});

describe("integrations on batch export writes", () => {
  it("are taken as integration_id or integration and shown as destination.integration", async () => {
    for (const key of ["integration_id", "integration"]) {
      const res = await h.api("POST", B, body("Databricks", { [key]: 7 }));
      expect(res.status).toBe(201);
      expect(schemaErrors("BatchExport", res.body)).toEqual([]);
      expect(res.body.destination).toEqual({
        type: "Databricks",
        config: CONFIGS.Databricks,
        integration: 7,
      });
      const got = await h.api("GET", `${B}${res.body.id}/`);
      expect(got.body.destination).not.toHaveProperty("integration_id");
    }
  });

  it.each([
    ["AwsS3", "Integration is required for AwsS3 batch exports"],
    ["S3Compatible", "Integration is required for S3Compatible batch exports"],
    ["Snowflake", "Integration is required for Snowflake batch exports"],
    ["Databricks", "Integration is required for Databricks batch exports"],
    ["AzureBlob", "Integration is required for Azure Blob batch exports"],
    ["BigQuery", "Integration is required for BigQuery batch exports"],
    ["Postgres", "Integration is required for Postgres batch exports"],
    ["Redshift", "Integration is required for Redshift batch exports"],
  ])("are required to create a %s export", async (type, detail) => {
    for (const extra of [{}, { integration_id: null }]) {
      const res = await h.api("POST", B, body(type, extra));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(detail));
    }
  });

  it.each([
    ["AwsS3", 2, "Integration provided is not an AWS S3 integration (got kind='s3-compatible')"],
    ["S3Compatible", 1, "Integration provided is not an AWS S3 integration (got kind='aws-s3')"],
    ["Snowflake", 1, "Integration provided is not a Snowflake integration (got kind='aws-s3')"],
    ["Databricks", 6, "Integration is not a Databricks integration."],
    ["AzureBlob", 7, "Integration is not an Azure Blob integration."],
    ["BigQuery", 3, "Integration is not a Google Cloud service account integration."],
    ["Postgres", 4, "Integration is not a PostgreSQL integration."],
    ["Redshift", 3, "Integration is not a Redshift integration."],
  ])("must be of the kind a %s export needs", async (type, id, detail) => {
    const res = await h.api("POST", B, body(type, { integration_id: id }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(detail));
  });

  it.each([
    ["AwsS3", 1],
    ["S3Compatible", 2],
    ["Snowflake", 4],
    ["Databricks", 7],
    ["AzureBlob", 6],
    ["BigQuery", 5],
    ["Postgres", 3],
    ["Redshift", 9],
  ])("of the right kind create a %s export", async (type, id) => {
    const res = await h.api("POST", B, body(type, { integration_id: id }));
    expect([res.status, res.body.destination?.integration]).toEqual([201, id]);
  });

  it.each([
    [INTEGRATION_IDS.stagingAwsS3, "does_not_exist", 'Invalid pk "10" - object does not exist.'],
    [INTEGRATION_IDS.globexAwsS3, "does_not_exist", 'Invalid pk "11" - object does not exist.'],
    [999, "does_not_exist", 'Invalid pk "999" - object does not exist.'],
    ["123", "does_not_exist", 'Invalid pk "123" - object does not exist.'],
    ["seven", "incorrect_type", "Incorrect type. Expected pk value, received str."],
    [true, "incorrect_type", "Incorrect type. Expected pk value, received bool."],
  ])(
    "refuse %j (another project's, missing or not a key) with the related field's error",
    async (value, code, detail) => {
      for (const key of ["integration_id", "integration"]) {
        const res = await h.api("POST", B, body("AwsS3", { [key]: value }));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(error(detail, `destination__${key}`, code));
      }
    },
  );

  it("S3 family and Snowflake keep the stored one when a write leaves it out; an explicit null is refused", async () => {
    const url = `${B}${S3_EXPORT_ID}/`;
    const kept = await h.api("PATCH", url, { destination: { type: "AwsS3", config: { prefix: "new/" } } });
    expect(kept.status).toBe(200);
    expect(kept.body.destination.integration).toBe(1);
    const removed = await h.api("PATCH", url, {
      destination: { type: "AwsS3", config: {}, integration_id: null },
    });
    expect(removed.body).toEqual(error("Integration is required for AwsS3 batch exports"));
    const snowflake = await h.api("POST", B, body("Snowflake", { integration_id: 4 }));
    const sfUrl = `${B}${snowflake.body.id}/`;
    const sfKept = await h.api("PATCH", sfUrl, { destination: { type: "Snowflake", config: { role: "r" } } });
    expect(sfKept.body.destination).toMatchObject({ integration: 4, config: { role: "r" } });
    const sfNull = await h.api("PATCH", sfUrl, {
      destination: { type: "Snowflake", config: {}, integration: null },
    });
    expect(sfNull.body).toEqual(error("Integration is required for Snowflake batch exports"));
    // A write without destination leaves the integration alone.
    expect((await h.api("PATCH", url, { name: "renamed" })).body.destination.integration).toBe(1);
  });

  it.each([
    ["Databricks", 7, "Integration is required for Databricks batch exports"],
    ["AzureBlob", 6, "Integration is required for Azure Blob batch exports"],
    ["BigQuery", 5, "Integration is required for BigQuery batch exports"],
  ])("%s must re-send it on every write that sends destination", async (type, id, detail) => {
    const created = await h.api("POST", B, body(type, { integration_id: id }));
    const url = `${B}${created.body.id}/`;
    const bare = await h.api("PATCH", url, { destination: { type, config: {} } });
    expect(bare.body).toEqual(error(detail));
    const resent = await h.api("PATCH", url, { destination: { type, config: {}, integration_id: id } });
    expect(resent.status).toBe(200);
  });

  it("Databricks moves to another integration of its kind", async () => {
    const created = await h.api("POST", B, body("Databricks", { integration_id: "7" }));
    expect(created.body.destination.integration).toBe(7);
    const moved = await h.api("PATCH", `${B}${created.body.id}/`, {
      destination: { type: "Databricks", config: {}, integration_id: 8 },
    });
    expect(moved.body.destination).toEqual({
      type: "Databricks",
      config: CONFIGS.Databricks,
      integration: 8,
    });
  });

  it("Postgres needs one on create only; existing inline exports edit without one and keep theirs", async () => {
    const edit = await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, {
      destination: { type: "Postgres", config: { table_name: "p2" } },
    });
    expect(edit.status).toBe(200);
    const created = await h.api("POST", B, body("Postgres", { integration_id: 3 }));
    const kept = await h.api("PATCH", `${B}${created.body.id}/`, {
      destination: { type: "Postgres", config: { schema: "s" } },
    });
    expect(kept.body.destination.integration).toBe(3);
  });

  it("Redshift refuses dropping an integration it has, and needs a host somewhere", async () => {
    const noHost = await h.api("POST", B, {
      ...body("Redshift", { integration_id: 9 }),
      destination: { type: "Redshift", config: { database: "d" }, integration_id: 9 },
    });
    expect(noHost.body).toEqual(
      error(
        "A 'host' is required when using an AWS Redshift integration: set it to the cluster or workgroup endpoint.",
      ),
    );
    const created = await h.api("POST", B, body("Redshift", { integration_id: 9 }));
    const drop = await h.api("PATCH", `${B}${created.body.id}/`, {
      destination: { type: "Redshift", config: { schema: "s" } },
    });
    expect(drop.body).toEqual(
      error(
        "Cannot remove the integration from a Redshift batch export that uses one. Re-send its `integration` to keep it (or a different one to swap).",
      ),
    );
    const copy = await h.api("PATCH", `${B}${created.body.id}/`, {
      destination: {
        type: "Redshift",
        integration_id: 9,
        config: {
          mode: "COPY",
          copy_inputs: {
            s3_bucket: "b",
            region_name: "r",
            authorization: "arn:aws:iam::1:role/r",
            bucket_credentials: 7,
          },
        },
      },
    });
    expect(copy.body).toEqual(
      error("'bucket_credentials' does not reference an AWS S3 integration of this project."),
    );
  });
});
