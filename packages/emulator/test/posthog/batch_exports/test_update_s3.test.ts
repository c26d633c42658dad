/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_update_s3.py (revision 0823efdb):
 * PATCHing integration-backed AwsS3 / S3Compatible exports. Stored configs the test edits through the
 * ORM (stale credentials, `legacy_parquet_extension` states) are edits of the emulator's state.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_update_s3.py");
const { world } = usePostHog();

const FAMILY: Array<[string, string, Record<string, unknown>]> = [
  ["AwsS3", "aws-s3", { name: "prod-aws", aws_account_id: "123456789012" }],
  [
    "S3Compatible",
    "s3-compatible",
    { name: "my-r2", endpoint_url: "https://account.r2.cloudflarestorage.com" },
  ],
];
const [AWS_S3] = FAMILY as [[string, string, Record<string, unknown>]];

const path = (id = "") => projectPath(world.team, `batch_exports/${id ? `${id}/` : ""}`);
const patch = (id: string, body: unknown) => world.client().patch(path(id), body);

async function integrationBackedExport(
  destinationType: string,
  kind: string,
  config: Record<string, unknown>,
) {
  const integration = await world.createIntegration(kind, config, {
    sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" },
  });
  const response = await world.client().post(path(), {
    name: "my-export",
    interval: "hour",
    destination: {
      type: destinationType,
      config: { bucket_name: "my-bucket", region: "us-east-1", prefix: "events/" },
      integration,
    },
  });
  assertStatus(response, 201);
  return { integration, batchExport: response.body as { id: string } };
}

/** `BatchExportDestination.objects.get(...); destination.config = ...; destination.save()`. */
async function editStoredConfig(id: string, edit: (config: Record<string, unknown>) => void) {
  await world.edit((s) => {
    const b = s.batch_exports.find((x) => x.id === id);
    if (b) edit(b.destination.config);
  });
}

describe("test_update_s3.py", () => {
  for (const integrationValue of [null, "omitted"] as const) {
    it.each(FAMILY)(
      cite("test_updating_s3_family_batch_export_requires_an_integration", `${integrationValue}-%s`),
      async (destinationType, kind, config) => {
        const { integration, batchExport } = await integrationBackedExport(destinationType, kind, config);
        const destination: Record<string, unknown> = {
          type: destinationType,
          config: { prefix: "new-prefix/" },
        };
        if (integrationValue === null) destination.integration = null;
        const response = await patch(batchExport.id, { destination });
        if (integrationValue === null) {
          assertStatus(response, 400);
          expect(response.body.detail).toBe(`Integration is required for ${destinationType} batch exports`);
        } else {
          assertStatus(response, 200);
          expect(response.body.destination.integration).toBe(integration);
        }
      },
    );
  }

  it.each(FAMILY)(
    cite("test_updating_integration_backed_s3_export_allows_config_patch_with_integration", "%s"),
    async (destinationType, kind, config) => {
      const { integration, batchExport } = await integrationBackedExport(destinationType, kind, config);
      const response = await patch(batchExport.id, {
        destination: { type: destinationType, config: { prefix: "new-prefix/" }, integration },
      });
      assertStatus(response, 200);
      expect(response.body.destination.config.prefix).toBe("new-prefix/");
      expect(response.body.destination.integration).toBe(integration);
    },
  );

  it.each(FAMILY)(
    cite("test_updating_migrated_s3_batch_export_ignores_credentials_left_in_stored_config", "%s"),
    async (destinationType, kind, config) => {
      const { integration, batchExport } = await integrationBackedExport(destinationType, kind, config);
      await editStoredConfig(batchExport.id, (c) => {
        c.aws_access_key_id = "stale";
        c.aws_secret_access_key = "stale";
      });
      const response = await patch(batchExport.id, {
        destination: { type: destinationType, config: { prefix: "new-prefix/" }, integration },
      });
      assertStatus(response, 200);
      expect(response.body.destination.config.prefix).toBe("new-prefix/");
    },
  );

  it(
    newerSource(
      cite("test_updating_legacy_s3_batch_export_is_rejected"),
      "products/batch_exports/backend/migrations/0010 (`S3` no longer a destination type choice)",
    ),
    async () => {
      // A row of the legacy `S3` type, as the test creates through the ORM. The newest service migrated
      // every such row to AwsS3 (migration 0010), and so does the emulator's seed.
      const id = "0190f1d2-0000-7000-8000-0000000000e3";
      await world.insert("batch_exports", {
        id,
        team_id: world.team,
        name: "my-production-s3-bucket-destination",
        interval: "hour",
        destination: {
          type: "S3",
          config: {
            bucket_name: "my-s3-bucket",
            region: "us-east-1",
            prefix: "events/",
            aws_access_key_id: "abc123",
            aws_secret_access_key: "secret",
          },
        },
      });
      const response = await patch(id, { destination: { type: "S3", config: { prefix: "new-prefix/" } } });
      assertStatus(response, 400);
      // Settled from the newest source (`S3` is no longer a choice): the test's revision expects the
      // interim "... is deprecated ..." message.
      expect(response.body.detail).toBe('"S3" is not a valid choice.');
    },
  );

  it(cite("test_updating_s3_family_batch_export_preserves_legacy_parquet_extension"), async () => {
    const [destinationType, kind, config] = AWS_S3;
    const { batchExport } = await integrationBackedExport(destinationType, kind, config);
    await editStoredConfig(batchExport.id, (c) => {
      c.legacy_parquet_extension = true;
    });
    const response = await patch(batchExport.id, {
      destination: { type: destinationType, config: { prefix: "new-prefix/" } },
    });
    assertStatus(response, 200);
    expect(response.body.destination.config.prefix).toBe("new-prefix/");
    expect(response.body.destination.config.legacy_parquet_extension).toBe(true);
  });

  it.each([
    ["Parquet", "zstd", true],
    ["JSONLines", "gzip", false],
    ["Parquet", null, false],
  ])(
    cite("test_updating_s3_family_batch_export_pins_naming_from_the_stored_config", "%s-%s-%s"),
    async (storedFileFormat, storedCompression, expected) => {
      const [destinationType, kind, config] = AWS_S3;
      const { batchExport } = await integrationBackedExport(destinationType, kind, config);
      await editStoredConfig(batchExport.id, (c) => {
        c.file_format = storedFileFormat;
        c.compression = storedCompression;
        delete c.legacy_parquet_extension;
      });
      const response = await patch(batchExport.id, {
        destination: { type: destinationType, config: { file_format: "Parquet", compression: "zstd" } },
      });
      assertStatus(response, 200);
      expect(response.body.destination.config.file_format).toBe("Parquet");
      expect(response.body.destination.config.legacy_parquet_extension).toBe(expected);
    },
  );

  it(cite("test_updating_s3_family_batch_export_rejects_turning_legacy_naming_back_on"), async () => {
    const [destinationType, kind, config] = AWS_S3;
    const { batchExport } = await integrationBackedExport(destinationType, kind, config);
    await editStoredConfig(batchExport.id, (c) => {
      Object.assign(c, { file_format: "Parquet", compression: "zstd", legacy_parquet_extension: false });
    });
    const response = await patch(batchExport.id, {
      destination: { type: destinationType, config: { legacy_parquet_extension: true } },
    });
    assertStatus(response, 400);
    expect(response.body.detail).toContain("legacy_parquet_extension");
  });

  it(
    cite("test_updating_s3_family_batch_export_lets_a_grandfathered_export_keep_legacy_naming"),
    async () => {
      const [destinationType, kind, config] = AWS_S3;
      const { batchExport } = await integrationBackedExport(destinationType, kind, config);
      await editStoredConfig(batchExport.id, (c) => {
        Object.assign(c, { file_format: "Parquet", compression: "zstd" });
        delete c.legacy_parquet_extension;
      });
      const response = await patch(batchExport.id, {
        destination: { type: destinationType, config: { legacy_parquet_extension: true } },
      });
      assertStatus(response, 200);
      expect(response.body.destination.config.legacy_parquet_extension).toBe(true);
    },
  );
});
