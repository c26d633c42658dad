/**
 * Batch exports under the newest rules (the default): lists, create/PATCH/PUT basics, secrets, soft
 * delete, pause / unpause. Destination types and integrations: destinations.test.ts and
 * integrations.test.ts; schedule fields: schedule.test.ts; the 2025 rules: older-rules.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ACME_ID, SEED_CREDENTIALS } from "../src/default-seed.js";
import { extraErrors, schemaErrors } from "./openapi.js";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;
const SECRET_VALUES = [SEED_CREDENTIALS.postgresPassword, 'posthog"'];

const awsS3 = (config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  name: "Nightly S3",
  interval: "day",
  destination: {
    type: "AwsS3",
    integration_id: 1,
    config: { bucket_name: "b", region: "eu-west-1", prefix: "p/", ...config },
  },
  ...extra,
});

describe("batch exports", () => {
  it("lists newest first without any secret, with the newest service's fields", async () => {
    const res = await h.api("GET", B);
    expect(res.status).toBe(200);
    expect(schemaErrors("PaginatedBatchExportList", res.body)).toEqual([]);
    expect(res.body.results.map((b: { id: string }) => b.id)).toEqual([POSTGRES_EXPORT_ID, S3_EXPORT_ID]);
    for (const secret of SECRET_VALUES) expect(res.text).not.toContain(secret);
    const [postgres, s3] = res.body.results;
    // The sample S3 export is an AwsS3 export with the aws-s3 integration, as the service migrated it.
    expect(s3.destination).toEqual({
      type: "AwsS3",
      config: {
        bucket_name: "acme-events",
        region: "us-east-1",
        prefix: "posthog/events/",
        file_format: "Parquet",
        compression: "zstd",
      },
      integration: 1,
    });
    expect(s3.latest_runs).toHaveLength(10);
    expect(s3).toMatchObject({
      hogql_query: null,
      hogql_modifiers: null,
      primary_key: null,
      version_key: null,
      incremental_mode: "APPEND",
      timezone: "UTC",
      offset_day: null,
      offset_hour: null,
    });
    expect(postgres).toMatchObject({ interval: "day", offset_day: null, offset_hour: 0, timezone: "UTC" });
    // Postgres created before integrations: inline credentials stay, hidden from every read.
    expect(postgres.destination).toEqual({
      type: "Postgres",
      config: {
        host: "db.example.com",
        port: 5432,
        database: "analytics",
        schema: "public",
        table_name: "persons",
      },
      integration: null,
    });
  });

  it("keeps the organization routes in the default mode (SPEC §5), without runs", async () => {
    await h.api("POST", "/api/projects/12346/batch_exports/", {
      ...awsS3(),
      name: "Staging",
      destination: { type: "NoOp", config: {} },
    });
    const org = await h.api("GET", `/api/organizations/${ACME_ID}/batch_exports/`);
    expect(org.body.count).toBe(3);
    expect(org.body.results[0].name).toBe("Staging");
    for (const secret of SECRET_VALUES) expect(org.text).not.toContain(secret);
    const one = await h.api("GET", `/api/organizations/${ACME_ID}/batch_exports/${S3_EXPORT_ID}/`);
    expect(one.status).toBe(200);
    const runs = await h.api("GET", `/api/organizations/${ACME_ID}/batch_exports/${S3_EXPORT_ID}/runs/`);
    expect(runs.status).toBe(404);
  });

  it("creates with 201, storing only what was sent plus legacy_parquet_extension: false", async () => {
    const res = await h.api("POST", B, awsS3({ file_format: "Parquet", compression: "zstd" }));
    expect(res.status).toBe(201);
    expect(schemaErrors("BatchExport", res.body)).toEqual([]);
    const config = {
      bucket_name: "b",
      region: "eu-west-1",
      prefix: "p/",
      file_format: "Parquet",
      compression: "zstd",
      legacy_parquet_extension: false,
    };
    expect(res.body.destination).toEqual({ type: "AwsS3", config, integration: 1 });
    expect(res.body).toMatchObject({ model: "events", paused: false, incremental_mode: "APPEND" });
    const state = await h.control("GET", "state");
    const stored = state.body.batch_exports.find((b: { id: string }) => b.id === res.body.id);
    expect(stored.destination.config).toEqual(config);
  });

  it("removes secrets recursively, e.g. inside Redshift copy_inputs", async () => {
    const res = await h.api("POST", B, {
      name: "Warehouse",
      interval: "hour",
      destination: {
        type: "Redshift",
        integration_id: 9,
        config: {
          user: "u",
          password: "pw-secret",
          host: "r.example.com",
          database: "dw",
          mode: "COPY",
          copy_inputs: {
            s3_bucket: "b",
            region_name: "us-east-1",
            s3_key_prefix: "k",
            authorization: { aws_access_key_id: "AKIA-nested", aws_secret_access_key: "nested-secret" },
            bucket_credentials: 1,
          },
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.destination.config.copy_inputs).toEqual({
      s3_bucket: "b",
      region_name: "us-east-1",
      s3_key_prefix: "k",
      authorization: {},
      bucket_credentials: 1,
    });
    for (const text of [
      res.text,
      (await h.api("GET", `${B}${res.body.id}/`)).text,
      (await h.api("GET", B)).text,
    ]) {
      for (const secret of ["pw-secret", "AKIA-nested", "nested-secret", '"user"']) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it("validates names and intervals, and refuses a model change with attr model", async () => {
    const post = (body: unknown) => h.api("POST", B, body);
    expect((await post({ ...awsS3(), name: undefined })).body).toEqual({
      type: "validation_error",
      code: "required",
      detail: "This field is required.",
      attr: "name",
    });
    expect((await post(awsS3({}, { name: " " }))).body).toEqual({
      type: "validation_error",
      code: "blank",
      detail: "This field may not be blank.",
      attr: "name",
    });
    const badInterval = await post(awsS3({}, { interval: "fortnight" }));
    expect(badInterval.body).toEqual({
      type: "validation_error",
      code: "invalid_choice",
      detail: '"fortnight" is not a valid choice.',
      attr: "interval",
    });
    const model = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { model: "persons" });
    expect(model.status).toBe(400);
    expect(model.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail: "Changing models is not supported. Create a new batch export instead.",
      attr: "model",
    });
    expect((await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { model: "events" })).status).toBe(200);
  });

  it("reports the first field error in the serializer's order, but a flag's 403 wins", async () => {
    // name (first field) and interval (later) both wrong: name is reported.
    const both = await h.api("POST", B, { ...awsS3(), name: undefined, interval: "fortnight" });
    expect(both.body.attr).toBe("name");
    // A 403 of a later field escapes at once, before the earlier 400 is reported.
    const flag = await h.api("POST", B, { ...awsS3(), name: undefined, interval: "every 5 minutes" });
    expect(flag.status).toBe(403);
    expect(flag.body).toEqual({
      type: "authentication_error",
      code: "permission_denied",
      detail: "Higher frequency batch exports are not enabled for this team.",
      attr: null,
    });
  });

  it("PATCH deep-merges config and keeps omitted secrets; PUT needs required keys", async () => {
    const patch = await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, {
      destination: { type: "Postgres", config: { table_name: "people" } },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.destination.config).toMatchObject({ table_name: "people", host: "db.example.com" });
    expect(patch.text).not.toContain(SEED_CREDENTIALS.postgresPassword);
    const state = await h.control("GET", "state");
    const stored = state.body.batch_exports.find((b: { id: string }) => b.id === POSTGRES_EXPORT_ID);
    expect(stored.destination.config.password).toBe(SEED_CREDENTIALS.postgresPassword);
    const put = (config: Record<string, unknown>) =>
      h.api("PUT", `${B}${POSTGRES_EXPORT_ID}/`, {
        name: "x",
        interval: "day",
        model: "persons",
        destination: { type: "Postgres", config },
      });
    expect((await put({ schema: "s" })).body.detail).toBe("Configuration missing required field: 'database'");
    const partial = await h.api("PUT", `${B}${POSTGRES_EXPORT_ID}/`, { name: "x" });
    expect(partial.body).toEqual({
      type: "validation_error",
      code: "required",
      detail: "This field is required.",
      attr: "destination",
    });
    const ok = await put({ database: "d2" });
    expect(ok.status).toBe(200);
    // PUT merges into the stored config too, like the service's update().
    expect(ok.body.destination.config).toEqual({
      host: "db.example.com",
      port: 5432,
      database: "d2",
      schema: "public",
      table_name: "people",
    });
  });

  it("answers 500 for a PATCHed destination without type or config, as the service's validator breaks", async () => {
    for (const destination of [{ config: { prefix: "x/" } }, { type: "AwsS3", integration_id: 1 }]) {
      const res = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { destination });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        type: "server_error",
        code: "error",
        detail: "A server error occurred.",
        attr: null,
      });
    }
    const post = await h.api("POST", B, { ...awsS3(), destination: { type: "AwsS3", integration_id: 1 } });
    expect(post.body).toEqual({
      type: "validation_error",
      code: "required",
      detail: "This field is required.",
      attr: "destination__config",
    });
  });

  it("soft-deletes with 204, then 404 and absent from lists", async () => {
    const del = await h.api("DELETE", `${B}${S3_EXPORT_ID}/`);
    expect(del.status).toBe(204);
    expect((await h.api("GET", `${B}${S3_EXPORT_ID}/`)).status).toBe(404);
    expect((await h.api("DELETE", `${B}${S3_EXPORT_ID}/`)).status).toBe(404);
    expect((await h.api("GET", B)).body.count).toBe(1);
    expect((await h.api("GET", `${B}not-a-uuid/`)).status).toBe(404);
  });

  it("pauses and unpauses idempotently, with an optional backfill since the pause", async () => {
    const pause = await h.api("POST", `${B}${S3_EXPORT_ID}/pause/`);
    expect(pause.status).toBe(200);
    expect(extraErrors("paused", pause.body)).toEqual([]);
    const first = (await h.api("GET", `${B}${S3_EXPORT_ID}/`)).body;
    expect(first.paused).toBe(true);
    expect(first.last_paused_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    await h.api("POST", `${B}${S3_EXPORT_ID}/pause/`);
    const second = (await h.api("GET", `${B}${S3_EXPORT_ID}/`)).body;
    expect(second.last_paused_at).toBe(first.last_paused_at);
    expect(second.last_updated_at).toBe(first.last_updated_at);
    const unpause = await h.api("POST", `${B}${POSTGRES_EXPORT_ID}/unpause/`, { backfill: true });
    expect(unpause.body).toEqual({ paused: false });
    const backfills = await h.api("GET", `${B}${POSTGRES_EXPORT_ID}/backfills/`);
    expect(backfills.body.results).toHaveLength(1);
    expect(schemaErrors("PaginatedBatchExportBackfillList", backfills.body)).toEqual([]);
    const pausedAt = (await h.control("GET", "state")).body.batch_exports.find(
      (b: { id: string }) => b.id === POSTGRES_EXPORT_ID,
    ).last_paused_at;
    // Backfill datetimes come in DRF's form (no milliseconds when there are none): compare instants.
    expect(Date.parse(backfills.body.results[0].start_at)).toBe(Date.parse(pausedAt));
    expect((await h.api("POST", `${B}${S3_EXPORT_ID}/unpause/`)).body).toEqual({ paused: false });
    expect((await h.api("POST", `${B}${S3_EXPORT_ID}/unpause/`)).body).toEqual({ paused: false });
  });
});
