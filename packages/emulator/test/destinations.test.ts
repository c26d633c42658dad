/**
 * Destination types and their config under the newest rules (service-api.md §0, §4): AwsS3 and
 * S3Compatible replace the legacy S3 type, credentials are no config keys, required / blank / typed
 * keys, file formats and compressions, `legacy_parquet_extension`, HTTP's URL allow-list.
 */
import { describe, expect, it } from "vitest";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;

const exportOf = (type: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: `${type} export`,
  interval: "hour",
  destination: { type, config, ...extra },
});
const s3Config = { bucket_name: "b", region: "eu-west-1", prefix: "p/" };
const error = (detail: string, attr: string | null = "destination", code = "invalid_input") => ({
  type: "validation_error",
  code,
  detail,
  attr,
});

describe("legacy S3", () => {
  it("is not a valid choice on create or update", async () => {
    const expected = error('"S3" is not a valid choice.', "destination__type", "invalid_choice");
    const create = await h.api(
      "POST",
      B,
      exportOf("S3", { ...s3Config, aws_access_key_id: "AKIA", aws_secret_access_key: "s" }),
    );
    expect(create.status).toBe(400);
    expect(create.body).toEqual(expected);
    const update = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "S3", config: { prefix: "x/" } },
    });
    expect(update.status).toBe(400);
    expect(update.body).toEqual(expected);
  });

  it("in a posted seed is migrated like the service did: AwsS3, or S3Compatible with an endpoint", async () => {
    await h.reseed((s) => {
      const base = s.batch_exports[0];
      if (!base) throw new Error("no export");
      s.batch_exports.push(
        {
          ...base,
          id: "0190f1d2-7b4e-7c3a-9d1f-0000000e00a1",
          name: "Old S3",
          destination: {
            type: "S3",
            integration: null,
            config: { ...s3Config, aws_access_key_id: "AKIA-old", aws_secret_access_key: "old-secret" },
          },
        },
        {
          ...base,
          id: "0190f1d2-7b4e-7c3a-9d1f-0000000e00a2",
          name: "Old R2",
          destination: {
            type: "S3",
            integration: null,
            config: {
              ...s3Config,
              endpoint_url: "https://r2.example.com",
              use_virtual_style_addressing: true,
              aws_access_key_id: "k",
              aws_secret_access_key: "s",
            },
          },
        },
      );
    });
    const state = (await h.control("GET", "state")).body;
    expect(JSON.stringify(state)).not.toContain("old-secret");
    const old = await h.api("GET", `${B}0190f1d2-7b4e-7c3a-9d1f-0000000e00a1/`);
    expect(old.body.destination).toEqual({ type: "AwsS3", config: s3Config, integration: 12 });
    const r2 = await h.api("GET", `${B}0190f1d2-7b4e-7c3a-9d1f-0000000e00a2/`);
    expect(r2.body.destination).toEqual({
      type: "S3Compatible",
      config: { ...s3Config, use_virtual_style_addressing: true },
      integration: 13,
    });
    const made = await h.api("GET", `${P}/integrations/13/`);
    expect(made.body).toMatchObject({
      kind: "s3-compatible",
      display_name: "Old R2 (access key, https://r2.example.com)",
      config: { endpoint_url: "https://r2.example.com" },
    });
  });
});

describe("AwsS3 and S3Compatible", () => {
  it("refuse inline credentials and endpoints as unknown fields, before the integration checks", async () => {
    const creds = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { ...s3Config, aws_secret_access_key: "s", aws_access_key_id: "AKIA" }),
    );
    expect(creds.status).toBe(400);
    expect(creds.body).toEqual(
      error("Configuration has unknown field/s: 'aws_access_key_id', 'aws_secret_access_key'"),
    );
    const endpoint = await h.api(
      "POST",
      B,
      exportOf("S3Compatible", { ...s3Config, endpoint_url: "https://x" }, { integration_id: 2 }),
    );
    expect(endpoint.body).toEqual(error("Configuration has unknown field/s: 'endpoint_url'"));
    // encryption belongs to AwsS3 only; use_virtual_style_addressing to S3Compatible only.
    const crossed = await h.api(
      "POST",
      B,
      exportOf("S3Compatible", { ...s3Config, encryption: "AES256" }, { integration_id: 2 }),
    );
    expect(crossed.body.detail).toBe("Configuration has unknown field/s: 'encryption'");
    const ok = await h.api(
      "POST",
      B,
      exportOf("S3Compatible", { ...s3Config, use_virtual_style_addressing: "yes" }, { integration_id: 2 }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.destination.config.use_virtual_style_addressing).toBe(true);
  });

  it("need bucket_name, region and prefix on POST and PUT, not on PATCH, and none blank", async () => {
    const missing = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { region: "r", prefix: "p" }, { integration_id: 1 }),
    );
    expect(missing.body).toEqual(error("Configuration missing required field: 'bucket_name'"));
    const put = await h.api("PUT", `${B}${S3_EXPORT_ID}/`, exportOf("AwsS3", { bucket_name: "b" }));
    expect(put.body).toEqual(error("Configuration missing required field: 'region'"));
    const blank = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { bucket_name: " ", region: "", prefix: "p" }, { integration_id: 1 }),
    );
    expect(blank.body).toEqual(error("The following inputs are empty: ['bucket_name', 'region']"));
    const patch = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "AwsS3", config: { prefix: "new/" } },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.destination.config.prefix).toBe("new/");
    expect(patch.body.destination.integration).toBe(1);
  });

  it("check declared types the Python way, and read optional numbers back typed", async () => {
    const badType = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { ...s3Config, bucket_name: 5 }, { integration_id: 1 }),
    );
    expect(badType.body).toEqual(error("Configuration has invalid type: got 'int', expected 'str'"));
    const badBool = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { ...s3Config, legacy_parquet_extension: 0 }, { integration_id: 1 }),
    );
    expect(badBool.body).toEqual(error("Configuration has invalid type: got 'int', expected 'bool'"));
    const nullStr = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { ...s3Config, file_format: null }, { integration_id: 1 }),
    );
    expect(nullStr.body).toEqual(error("Configuration has invalid type: got 'NoneType', expected 'str'"));
    // max_file_size_mb is `int | None`: not checked on write, read back as an int when it is one.
    const size = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { ...s3Config, max_file_size_mb: "64" }, { integration_id: 1 }),
    );
    expect(size.status).toBe(201);
    expect(size.body.destination.config.max_file_size_mb).toBe(64);
  });

  it("allow only the file formats and compressions of each format, on the merged config", async () => {
    const post = (config: Record<string, unknown>) =>
      h.api("POST", B, exportOf("AwsS3", { ...s3Config, ...config }, { integration_id: 1 }));
    expect((await post({ compression: "zstd" })).body).toEqual(
      error(
        "Compression zstd is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']",
      ),
    );
    expect((await post({ file_format: "CSV" })).body).toEqual(
      error("File format CSV is not supported. Supported file formats are ['Parquet', 'JSONLines']"),
    );
    expect((await post({ file_format: "Parquet", compression: "snappy" })).status).toBe(201);
    // The sample export writes Parquet with zstd: switching only the format breaks the pair.
    const patch = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "AwsS3", config: { file_format: "JSONLines" } },
    });
    expect(patch.body.detail).toBe(
      "Compression zstd is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']",
    );
  });

  it("refuse legacy_parquet_extension: true on a new export, keep it for one that already writes codecs", async () => {
    const text =
      "'legacy_parquet_extension' can only stay on for an export that already writes the compression codec into its Parquet file names. It cannot be turned on for a new export, or turned back on once an export moved to the standard '.parquet' extension.";
    const create = await h.api(
      "POST",
      B,
      exportOf("AwsS3", { ...s3Config, legacy_parquet_extension: true }, { integration_id: 1 }),
    );
    expect(create.body).toEqual(error(text));
    // The sample export predates the setting and writes zstd Parquet: a destination write pins it on.
    const pinned = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "AwsS3", config: { prefix: "x/" } },
    });
    expect(pinned.body.destination.config.legacy_parquet_extension).toBe(true);
    const keep = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "AwsS3", config: { legacy_parquet_extension: "true" } },
    });
    expect(keep.status).toBe(200);
    const off = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "AwsS3", config: { legacy_parquet_extension: false } },
    });
    expect(off.body.destination.config.legacy_parquet_extension).toBe(false);
    const backOn = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "AwsS3", config: { legacy_parquet_extension: true } },
    });
    expect(backOn.body).toEqual(error(text));
  });

  it("refuse a destination type change", async () => {
    const res = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, {
      destination: { type: "S3Compatible", integration_id: 2, config: {} },
    });
    expect(res.body).toEqual(
      error(
        "Cannot change destination type from 'AwsS3' to 'S3Compatible'. Delete this batch export and create a new one with the new destination type.",
      ),
    );
  });
});

describe("Workflows", () => {
  it("is behind its flag, and hidden from the list but retrievable", async () => {
    const body = exportOf("Workflows", { hog_function_id: "0190f1d2-0000-7000-8000-00000000f001" });
    const refused = await h.api("POST", B, body);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("Backfilling Workflows is not enabled for this team.");
    await h.reseed((s) => {
      s.service.feature_flags["backfill-workflows-destination"] = true;
    });
    const made = await h.api("POST", B, body);
    expect(made.status).toBe(201);
    expect((await h.api("GET", B)).body.results.map((b: { id: string }) => b.id)).not.toContain(made.body.id);
    expect((await h.api("GET", `${B}${made.body.id}/`)).status).toBe(200);
  });
});

describe("other types' newest keys", () => {
  it("Snowflake keeps account, user and password in its integration", async () => {
    const inline = await h.api(
      "POST",
      B,
      exportOf(
        "Snowflake",
        { account: "a", user: "u", password: "p", database: "d", warehouse: "w", schema: "s" },
        { integration_id: 4 },
      ),
    );
    expect(inline.body).toEqual(error("Configuration has unknown field/s: 'account', 'password', 'user'"));
    const ok = await h.api(
      "POST",
      B,
      exportOf("Snowflake", { database: "d", warehouse: "w", schema: "s" }, { integration_id: 4 }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.destination).toEqual({
      type: "Snowflake",
      config: { database: "d", warehouse: "w", schema: "s" },
      integration: 4,
    });
  });

  it("Postgres still takes inline credentials, hidden on read", async () => {
    const ok = await h.api(
      "POST",
      B,
      exportOf(
        "Postgres",
        { database: "d", user: "u", password: "pg-secret", host: "h.example.com", port: "6543" },
        { integration_id: 3 },
      ),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.destination.config).toEqual({ database: "d", host: "h.example.com", port: 6543 });
    expect(ok.text).not.toContain("pg-secret");
    // The sample export, created before integrations, stays editable without one.
    const edit = await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, {
      destination: { type: "Postgres", config: { schema: "s2" } },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.destination.integration).toBeNull();
  });

  it("HTTP posts only to PostHog's batch endpoints, checked on the merged config, and only events", async () => {
    const bad = await h.api("POST", B, exportOf("HTTP", { url: "https://hooks.example.com/in", token: "t" }));
    expect(bad.body).toEqual(error("Invalid destination URL: https://hooks.example.com/in"));
    const ok = await h.api(
      "POST",
      B,
      exportOf("HTTP", { url: "https://eu.i.posthog.com/batch/", token: "t" }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.destination.config).toEqual({ url: "https://eu.i.posthog.com/batch/" });
    const patch = await h.api("PATCH", `${B}${ok.body.id}/`, {
      destination: { type: "HTTP", config: { token: "t2" } },
    });
    expect(patch.status).toBe(200);
    const persons = await h.api("POST", B, {
      ...exportOf("HTTP", { url: "https://us.i.posthog.com/batch/", token: "t" }),
      model: "persons",
    });
    expect(persons.body).toEqual(error("HTTP batch exports only support the events model", null));
  });
});
