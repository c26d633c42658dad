/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_update_redshift.py (revision
 * 1174c239): PATCHing Redshift exports in COPY mode.
 *
 * Set-up adapted to the newest source: a new Redshift export needs an integration (exports.py), and an
 * export that has one cannot drop it on a PATCH, which is what every PATCH here does; the test's
 * exports are the ones it means, created before integrations existed with inline credentials, so they
 * are added to the emulator's state as such (what `BatchExport.objects.create` does in other tests).
 * The host is a public name: the emulator runs the SSRF guard as production does.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_update_redshift.py");
const { world } = usePostHog();

const CREDS = { aws_access_key_id: "abc123", aws_secret_access_key: "secret" };
const path = (id = "") => projectPath(world.team, `batch_exports/${id ? `${id}/` : ""}`);

let sequence = 0;
async function copyBatchExport(copyInputs: Record<string, unknown>): Promise<string> {
  const id = `0190f1d2-0000-7000-8000-${String(0xf00 + sequence++).padStart(12, "0")}`;
  await world.insert("batch_exports", {
    id,
    team_id: world.team,
    name: "my-production-redshift-destination",
    interval: "hour",
    destination: {
      type: "Redshift",
      config: {
        user: "user",
        password: "my-password",
        database: "my-db",
        host: "redshift.example.com",
        schema: "public",
        table_name: "my_events",
        mode: "COPY",
        copy_inputs: copyInputs,
      },
    },
  });
  return id;
}

const awsS3Integration = (name = "prod-aws") =>
  world.createIntegration(
    "aws-s3",
    { name, aws_account_id: "123456789012" },
    { sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
  );

async function getOk(id: string) {
  const response = await world.client().get(path(id));
  assertStatus(response, 200);
  return response.body;
}

const BUCKET = {
  s3_bucket: "my-production-s3-bucket",
  region_name: "us-east-1",
  s3_key_prefix: "posthog-events/",
};

describe("test_update_redshift.py", () => {
  it(cite("test_can_patch_redshift_batch_export"), async () => {
    const id = await copyBatchExport({ ...BUCKET, bucket_credentials: CREDS, authorization: CREDS });
    const response = await world.client().patch(path(id), {
      destination: {
        type: "Redshift",
        config: { copy_inputs: { s3_bucket: "my-new-production-s3-bucket" } },
      },
    });
    assertStatus(response, 200);
    const data = await getOk(id);
    expect(data.destination.type).toBe("Redshift");
    expect(data.destination.config.copy_inputs.s3_bucket).toBe("my-new-production-s3-bucket");
  });

  it(cite("test_can_patch_redshift_batch_export_switching_authorization_to_credentials"), async () => {
    const id = await copyBatchExport({
      ...BUCKET,
      bucket_credentials: CREDS,
      authorization: "arn:aws:iam::123456789012:role/my-role",
    });
    const response = await world.client().patch(path(id), {
      destination: {
        type: "Redshift",
        config: {
          copy_inputs: {
            authorization: { aws_access_key_id: "new-key", aws_secret_access_key: "new-secret" },
          },
        },
      },
    });
    assertStatus(response, 200);
    const data = await getOk(id);
    expect(data.destination.config.copy_inputs.s3_bucket).toBe("my-production-s3-bucket");
  });

  it.each(["authorization", "bucket_credentials"])(
    cite("test_patching_redshift_batch_export_rejects_switching_copy_integration_to_inline", "%s"),
    async (fieldName) => {
      const integration = await awsS3Integration();
      const id = await copyBatchExport({
        ...BUCKET,
        bucket_credentials: integration,
        authorization: integration,
      });
      const response = await world.client().patch(path(id), {
        destination: { type: "Redshift", config: { copy_inputs: { [fieldName]: CREDS } } },
      });
      assertStatus(response, 400);
      expect(response.body.detail).toContain(
        `Cannot switch '${fieldName}' from an integration to inline credentials`,
      );
    },
  );

  it(cite("test_can_patch_redshift_batch_export_swapping_copy_integration"), async () => {
    const integration = await awsS3Integration();
    const other = await awsS3Integration("prod-aws-2");
    const id = await copyBatchExport({
      ...BUCKET,
      bucket_credentials: integration,
      authorization: integration,
    });
    const response = await world.client().patch(path(id), {
      destination: {
        type: "Redshift",
        config: { copy_inputs: { bucket_credentials: other, authorization: other } },
      },
    });
    assertStatus(response, 200);
    const data = await getOk(id);
    expect(data.destination.config.copy_inputs.bucket_credentials).toBe(other);
    expect(data.destination.config.copy_inputs.authorization).toBe(other);
  });
});
