/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_s3.py (revision 0823efdb):
 * creating AwsS3 / S3Compatible exports. `conftest.py`'s integrations are integrations of the team;
 * the Temporal schedule assertion (workflow `s3-export`) has no counterpart in the emulator.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_s3.py");
const { world } = usePostHog();

const BASE = { bucket_name: "my-bucket", region: "us-east-1", prefix: "events/" };
const SENSITIVE = { aws_access_key_id: "key", aws_secret_access_key: "secret" };

const fixtures: Record<string, () => Promise<number>> = {
  aws_s3_integration: () =>
    world.createIntegration(
      "aws-s3",
      { name: "prod-aws", aws_account_id: "123456789012" },
      { sensitive: SENSITIVE },
    ),
  s3_compatible_integration: () =>
    world.createIntegration(
      "s3-compatible",
      { name: "my-r2", endpoint_url: "https://account.r2.cloudflarestorage.com" },
      { sensitive: SENSITIVE },
    ),
};

const create = (destination: Record<string, unknown>) =>
  world
    .client()
    .post(projectPath(world.team, "batch_exports"), { name: "my-export", interval: "hour", destination });

describe("test_create_s3.py", () => {
  const familyCases: Array<[string, string, Record<string, unknown>, string]> = [
    ["AwsS3", "aws_s3_integration", { encryption: "AES256" }, "AwsS3"],
    ["S3Compatible", "s3_compatible_integration", { use_virtual_style_addressing: true }, "S3Compatible"],
  ];
  it.each(familyCases)(
    cite("test_create_s3_family_batch_export", "%s"),
    async (destinationType, fixture, extraConfig, expectedPersistedType) => {
      const integration = await fixtures[fixture]?.();
      const response = await create({
        type: destinationType,
        config: { ...BASE, ...extraConfig },
        integration,
      });
      assertStatus(response, 201);
      expect(response.body.destination.type).toBe(expectedPersistedType);
      expect(response.body.destination.config.legacy_parquet_extension).toBe(false);
    },
  );

  it.each(["AwsS3", "S3Compatible"])(
    cite("test_create_s3_family_batch_export_requires_an_integration", "%s"),
    async (destinationType) => {
      const response = await create({ type: destinationType, config: { ...BASE } });
      assertStatus(response, 400);
      expect(response.body.detail).toBe(`Integration is required for ${destinationType} batch exports`);
    },
  );

  it(
    newerSource(
      cite("test_create_legacy_s3_type_is_rejected"),
      "products/batch_exports/backend/migrations/0010 (`S3` no longer a destination type choice)",
    ),
    async () => {
      const response = await create({ type: "S3", config: { ...BASE } });
      assertStatus(response, 400);
      // Settled from the newest source (migration 0010 drops `S3` from the type choices, service-api.md
      // §0): the test's revision asserts the interim "deprecated ... Use 'AwsS3' ... or 'S3Compatible'"
      // message; the newest service answers DRF's choice error instead.
      expect(response.body).toEqual({
        type: "validation_error",
        code: "invalid_choice",
        detail: '"S3" is not a valid choice.',
        attr: "destination__type",
      });
    },
  );

  it.each([
    ["AwsS3", "aws_s3_integration"],
    ["S3Compatible", "s3_compatible_integration"],
  ])(
    cite("test_create_s3_family_batch_export_validates_empty_inputs", "%s"),
    async (destinationType, fixture) => {
      const integration = await fixtures[fixture]?.();
      const response = await create({
        type: destinationType,
        config: { ...BASE, bucket_name: "", region: "" },
        integration,
      });
      assertStatus(response, 400);
      expect(response.body.detail).toBe("The following inputs are empty: ['bucket_name', 'region']");
    },
  );

  const inapplicable: Array<[string, Record<string, unknown>, string]> = [
    ["AwsS3", { aws_access_key_id: "belongs-in-the-integration" }, "aws_access_key_id"],
    ["AwsS3", { aws_secret_access_key: "belongs-in-the-integration" }, "aws_secret_access_key"],
    ["S3Compatible", { aws_access_key_id: "belongs-in-the-integration" }, "aws_access_key_id"],
    ["S3Compatible", { aws_secret_access_key: "belongs-in-the-integration" }, "aws_secret_access_key"],
    ["S3Compatible", { endpoint_url: "https://localhost:9000" }, "endpoint_url"],
    ["AwsS3", { endpoint_url: "https://localhost:9000" }, "endpoint_url"],
    ["AwsS3", { use_virtual_style_addressing: true }, "use_virtual_style_addressing"],
    ["S3Compatible", { kms_key_id: "alias/test" }, "kms_key_id"],
    ["S3Compatible", { encryption: "aws:kms" }, "encryption"],
  ];
  it.each(inapplicable)(
    cite("test_create_s3_family_batch_export_rejects_inapplicable_fields", "%s-%j"),
    async (destinationType, extraConfig, offendingField) => {
      const response = await create({ type: destinationType, config: { ...BASE, ...extraConfig } });
      assertStatus(response, 400);
      expect(response.body.detail).toContain(offendingField);
    },
  );

  const formats: Array<[string, string | null, string | null]> = [
    ["JSONLines", null, null],
    ["JSONLines", "gzip", null],
    [
      "JSONLines",
      "zstd",
      "Compression zstd is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']",
    ],
    ["Parquet", null, null],
    ["Parquet", "gzip", null],
    ["Parquet", "brotli", null],
    ["Parquet", "zstd", null],
    [
      "Parquet",
      "unknown",
      "Compression unknown is not supported for file format Parquet. Supported compressions are ['zstd', 'lz4', 'snappy', 'gzip', 'brotli']",
    ],
    [
      "unknown",
      "gzip",
      "File format unknown is not supported. Supported file formats are ['Parquet', 'JSONLines']",
    ],
  ];
  it.each(formats)(
    cite("test_create_s3_batch_export_validates_file_format_and_compression", "%s-%s"),
    async (fileFormat, compression, expectedErrorMessage) => {
      const integration = await fixtures.aws_s3_integration?.();
      const response = await world.client().post(projectPath(world.team, "batch_exports"), {
        name: "my-s3-bucket",
        destination: {
          type: "AwsS3",
          integration,
          config: {
            bucket_name: "my-s3-bucket",
            region: "us-east-1",
            prefix: "posthog-events/",
            file_format: fileFormat,
            compression,
          },
        },
        interval: "hour",
      });
      if (expectedErrorMessage === null) {
        assertStatus(response, 201);
      } else {
        assertStatus(response, 400);
        expect(response.body.detail).toBe(expectedErrorMessage);
      }
    },
  );

  it.each([
    ["AwsS3", "aws_s3_integration"],
    ["S3Compatible", "s3_compatible_integration"],
  ])(cite("test_create_s3_family_batch_export_using_integration", "%s"), async (destinationType, fixture) => {
    const integration = await fixtures[fixture]?.();
    const response = await create({ type: destinationType, config: { ...BASE }, integration });
    assertStatus(response, 201);
    expect(response.body.destination.type).toBe(destinationType);
    expect(response.body.destination.config).not.toHaveProperty("aws_access_key_id");
    expect(response.body.destination.config).not.toHaveProperty("aws_secret_access_key");
  });

  it.each([
    ["AwsS3", "s3_compatible_integration"],
    ["S3Compatible", "aws_s3_integration"],
  ])(
    cite("test_create_s3_family_batch_export_rejects_mismatched_integration_kind", "%s"),
    async (destinationType, fixture) => {
      const integration = await fixtures[fixture]?.();
      const response = await create({ type: destinationType, config: { ...BASE }, integration });
      assertStatus(response, 400);
    },
  );

  it(cite("test_create_s3_family_batch_export_rejects_an_explicit_legacy_parquet_extension"), async () => {
    const integration = await fixtures.aws_s3_integration?.();
    const response = await create({
      type: "AwsS3",
      config: { ...BASE, file_format: "Parquet", compression: "zstd", legacy_parquet_extension: true },
      integration,
    });
    assertStatus(response, 400);
    expect(response.body.detail).toContain("legacy_parquet_extension");
  });
});
