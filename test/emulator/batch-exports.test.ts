import { describe, expect, it } from "vitest";
import { ACME_ID } from "../../src/emulator/default-seed.js";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "./helpers.js";
import { extraErrors, schemaErrors } from "./openapi.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;
const SECRET_VALUES = [
  "AKIAEMULATOR000000",
  "emulator-secret-access-key",
  "emulator-db-password",
  'posthog"',
];

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

describe("batch exports", () => {
  it("lists newest first without any secret, org scope covering every project", async () => {
    const res = await h.api("GET", B);
    expect(res.status).toBe(200);
    expect(schemaErrors("PaginatedBatchExportList", res.body)).toEqual([]);
    expect(res.body.results.map((b: { id: string }) => b.id)).toEqual([POSTGRES_EXPORT_ID, S3_EXPORT_ID]);
    for (const secret of SECRET_VALUES) expect(res.text).not.toContain(secret);
    expect(res.body.results[1].destination.config).toEqual({
      bucket_name: "acme-events",
      region: "us-east-1",
      prefix: "posthog/events/",
      file_format: "Parquet",
      compression: "zstd",
    });
    expect(res.body.results[1].latest_runs).toHaveLength(10);
    await h.api("POST", "/api/projects/12346/batch_exports/", { ...s3(), name: "Staging" });
    const org = await h.api("GET", `/api/organizations/${ACME_ID}/batch_exports/`);
    expect(org.body.count).toBe(3);
    expect(org.body.results[0].name).toBe("Staging");
    for (const secret of SECRET_VALUES) expect(org.text).not.toContain(secret);
    expect((await h.api("GET", `/api/organizations/${ACME_ID}/batch_exports/${S3_EXPORT_ID}/`)).status).toBe(
      200,
    );
    expect(
      (await h.api("GET", `/api/organizations/${ACME_ID}/batch_exports/${S3_EXPORT_ID}/runs/`)).status,
    ).toBe(404);
  });

  it("creates with 201 and strips secrets from the reply, keeping them in the store", async () => {
    const res = await h.api("POST", B, s3());
    expect(res.status).toBe(201);
    expect(schemaErrors("BatchExport", res.body)).toEqual([]);
    expect(res.body.destination.config).toEqual({ bucket_name: "b", region: "eu-west-1", prefix: "p/" });
    expect(res.body.model).toBe("events");
    expect(res.body.paused).toBe(false);
    const state = await h.control("GET", "state");
    const stored = state.body.batch_exports.find((b: { id: string }) => b.id === res.body.id);
    expect(stored.destination.config.aws_secret_access_key).toBe("shh");
  });

  it("removes secrets recursively, e.g. inside Redshift copy_inputs", async () => {
    const res = await h.api("POST", B, {
      name: "Warehouse",
      interval: "hour",
      destination: {
        type: "Redshift",
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
    });
    for (const text of [
      res.text,
      (await h.api("GET", `${B}${res.body.id}/`)).text,
      (await h.api("GET", B)).text,
    ]) {
      for (const secret of ["pw-secret", "AKIA-nested", "nested-secret", '"user"'])
        expect(text).not.toContain(secret);
    }
  });

  it("validates names, destination types, config keys, intervals and models", async () => {
    const post = (body: unknown) => h.api("POST", B, body);
    expect((await post({ ...s3(), name: undefined })).body).toEqual({
      type: "validation_error",
      code: "required",
      detail: "This field is required.",
      attr: "name",
    });
    const badType = await post({ ...s3(), destination: { type: "FTP", config: {} } });
    expect(badType.body.detail).toBe('"FTP" is not a valid choice.');
    expect(badType.body.attr).toBe("destination__type");
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
    expect((await post({ ...s3(), interval: "fortnight" })).body.detail).toBe(
      '"fortnight" is not a valid choice.',
    );
    expect((await post({ ...s3(), interval: "every 5 minutes" })).status).toBe(403);
    expect((await post({ ...s3(), model: "things" })).body.attr).toBe("model");
    const http = await post({
      name: "h",
      interval: "hour",
      model: "persons",
      destination: { type: "HTTP", config: { url: "https://us.i.posthog.com/batch/", token: "t" } },
    });
    expect(http.body.detail).toBe("HTTP batch exports only support the events model");
  });

  it("PATCH deep-merges config, keeps omitted secrets and refuses type or model changes", async () => {
    const patch = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "S3", config: { prefix: "new/" } },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.destination.config.prefix).toBe("new/");
    expect(patch.body.destination.config.bucket_name).toBe("acme-events");
    expect(patch.text).not.toContain("emulator-secret-access-key");
    const state = await h.control("GET", "state");
    const stored = state.body.batch_exports.find((b: { id: string }) => b.id === S3_EXPORT_ID);
    expect(stored.destination.config.aws_secret_access_key).toBe("emulator-secret-access-key");
    const type = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "Postgres", config: {} },
    });
    expect(type.body.detail).toBe(
      "Cannot change destination type from 'S3' to 'Postgres'. Delete this batch export and create a new one with the new destination type.",
    );
    const model = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { model: "persons" });
    expect(model.body.detail).toBe("Changing models is not supported. Create a new batch export instead.");
    const noType = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { destination: { config: {} } });
    expect(noType.body.attr).toBe("destination__type");
  });

  it("PUT needs the whole object including required config keys", async () => {
    const partial = await h.api("PUT", `${B}${POSTGRES_EXPORT_ID}/`, { name: "x" });
    expect(partial.status).toBe(400);
    const noSecret = await h.api("PUT", `${B}${POSTGRES_EXPORT_ID}/`, {
      name: "x",
      interval: "day",
      model: "persons",
      destination: { type: "Postgres", config: { host: "h", database: "d" } },
    });
    expect(noSecret.body.detail).toBe("Configuration missing required field: 'user'");
    const ok = await h.api("PUT", `${B}${POSTGRES_EXPORT_ID}/`, {
      name: "x",
      interval: "day",
      model: "persons",
      destination: { type: "Postgres", config: { user: "u", password: "p", host: "h", database: "d" } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.destination.config).toEqual({
      host: "h",
      port: 5432,
      database: "d",
      schema: "public",
      table_name: "persons",
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
    const unpause = await h.api("POST", `${P}/batch_exports/${POSTGRES_EXPORT_ID}/unpause/`, {
      backfill: true,
    });
    expect(unpause.body).toEqual({ paused: false });
    const backfills = await h.api("GET", `${P}/batch_exports/${POSTGRES_EXPORT_ID}/backfills/`);
    expect(backfills.body.results).toHaveLength(1);
    expect(schemaErrors("PaginatedBatchExportBackfillList", backfills.body)).toEqual([]);
    expect((await h.api("POST", `${B}${S3_EXPORT_ID}/unpause/`)).body).toEqual({ paused: false });
    expect((await h.api("POST", `${B}${S3_EXPORT_ID}/unpause/`)).body).toEqual({ paused: false });
  });
});
