/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_redshift.py (revision
 * 0aea4adf): Redshift exports, their COPY inputs and their integration.
 *
 * Set-up adapted to the newest source (exports.py `validate_destination`): a new Redshift export needs
 * an `aws-redshift` integration, which this revision's COPY tests predate, so those tests send the
 * `conftest.py` role integration with their inline body; and the emulator runs the SSRF guard as
 * production does (PostHog's tests bypass it with `settings.TEST`), so the cluster host is a public
 * address instead of `localhost`. What the tests check (the COPY input rules) is unchanged.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_redshift.py");
const { world } = usePostHog();

const HOST = "redshift.example.com";
const CREDS = { aws_access_key_id: "abc123", aws_secret_access_key: "secret" };

const awsRedshiftRoleIntegration = (team = world.team) =>
  world.createIntegration(
    "aws-redshift",
    {
      name: "prod-redshift-role",
      aws_role_arn: "arn:aws:iam::123456789012:role/posthog-batch-exports",
      user: "awsuser",
    },
    { team, sensitive: {} },
  );

const awsS3Integration = (team = world.team) =>
  world.createIntegration(
    "aws-s3",
    { name: "prod-aws", aws_account_id: "123456789012" },
    { team, sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
  );

const create = (destination: Record<string, unknown>, name = "my-production-redshift-destination") =>
  world.client().post(projectPath(world.team, "batch_exports"), { name, destination, interval: "hour" });

describe("test_create_redshift.py", () => {
  const copyCases: Array<[string, string, Record<string, unknown> | null, number]> = [
    ["insert-empty", "INSERT", {}, 201],
    ["insert-none", "INSERT", null, 201],
    [
      "copy-role",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: CREDS,
        authorization: "default",
      },
      201,
    ],
    [
      "copy-credentials",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: CREDS,
        authorization: CREDS,
      },
      201,
    ],
    [
      "missing-s3_bucket",
      "COPY",
      {
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: CREDS,
        authorization: "default",
      },
      400,
    ],
    [
      "missing-region_name",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: CREDS,
        authorization: "default",
      },
      400,
    ],
    [
      "missing-secret",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: { aws_access_key_id: "abc123" },
        authorization: "default",
      },
      400,
    ],
    [
      "empty-bucket_credentials",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: {},
        authorization: "default",
      },
      400,
    ],
    [
      "empty-authorization",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: CREDS,
        authorization: {},
      },
      400,
    ],
    [
      "empty-role",
      "COPY",
      {
        s3_bucket: "my-production-s3-bucket",
        region_name: "us-east-1",
        s3_key_prefix: "posthog-events/",
        bucket_credentials: CREDS,
        authorization: "",
      },
      400,
    ],
  ];
  it.each(copyCases)(
    cite("test_create_redshift_batch_export_validates_copy_inputs", "%s"),
    async (_id, mode, copyInputs, expectedStatus) => {
      const response = await create({
        type: "Redshift",
        config: {
          user: "user",
          password: "my-password",
          database: "my-db",
          host: HOST,
          schema: "public",
          table_name: "my_events",
          mode,
          copy_inputs: copyInputs,
        },
        integration: await awsRedshiftRoleIntegration(),
      });
      assertStatus(response, expectedStatus);
      if (expectedStatus === 400) expect(response.body.detail).toContain("Missing required");
    },
  );

  it.each([[["arn:aws:iam::123456789012:role/my-role"]], [true], [1.5]])(
    cite("test_create_redshift_batch_export_rejects_invalid_authorization_type", "%j"),
    async (authorization) => {
      const response = await create({
        type: "Redshift",
        config: {
          user: "user",
          password: "my-password",
          database: "my-db",
          host: HOST,
          mode: "COPY",
          copy_inputs: {
            s3_bucket: "my-production-s3-bucket",
            region_name: "us-east-1",
            s3_key_prefix: "posthog-events/",
            bucket_credentials: CREDS,
            authorization,
          },
        },
        integration: await awsRedshiftRoleIntegration(),
      });
      assertStatus(response, 400);
      expect(response.body.detail).toContain("Authorization for 'COPY'");
    },
  );

  it(cite("test_create_redshift_batch_export_with_aws_integration"), async () => {
    const response = await create(
      {
        type: "Redshift",
        config: { database: "my-db", host: "8.8.8.8" },
        integration: await awsRedshiftRoleIntegration(),
      },
      "my-integration-backed-redshift-destination",
    );
    assertStatus(response, 201);
  });

  it(cite("test_create_redshift_batch_export_with_plain_integration"), async () => {
    const integration = await world.createIntegration(
      "aws-redshift",
      { host: "8.8.8.8", port: 5439, user: "posthog", ssl_mode: "require" },
      { sensitive: { password: "very-secret" } },
    );
    const response = await create(
      { type: "Redshift", config: { database: "my-db" }, integration },
      "my-integration-backed-redshift-destination",
    );
    assertStatus(response, 201);
  });

  const failures: Array<[string, string, string?]> = [
    ["wrong_kind", "not a Redshift integration"],
    ["aws_integration_without_host", "host"],
    // Settled from the newest source: `database` is the only required Redshift config field now
    // (destinations.py RedshiftDestinationConfigSerializer), so a body with neither integration nor
    // credentials meets exports.py's integration requirement before any missing-field error; the
    // test's revision expects "missing required field".
    [
      "no_integration_no_credentials",
      "Integration is required for Redshift batch exports",
      "products/batch_exports/backend/api/destinations.py RedshiftDestinationConfigSerializer and exports.py `validate_destination`",
    ],
  ];
  for (const [failure, expectedError, newer] of failures) {
    const title = cite("test_create_redshift_batch_export_validates_integration", failure);
    it(newer ? newerSource(title, newer) : title, async () => {
      const destination: Record<string, unknown> = { type: "Redshift", config: { database: "my-db" } };
      if (failure === "wrong_kind") destination.integration = await awsS3Integration();
      else if (failure === "aws_integration_without_host")
        destination.integration = await awsRedshiftRoleIntegration();
      const response = await create(destination, "my-integration-backed-redshift-destination");
      assertStatus(response, 400);
      expect(response.body.detail).toContain(expectedError);
    });
  }

  it.each(["own_integration", "other_team_integration", "wrong_kind_integration", "nonexistent_integration"])(
    cite("test_create_redshift_batch_export_validates_copy_integration_ids", "%s"),
    async (source) => {
      let integrationId: number;
      let expectedStatus: number;
      if (source === "own_integration") {
        integrationId = await awsS3Integration();
        expectedStatus = 201;
      } else if (source === "other_team_integration") {
        const otherOrganization = await world.createOrganization("Other Org");
        const otherTeam = await world.createTeam(otherOrganization);
        await world.createUser("other@user.com", otherOrganization);
        integrationId = await awsS3Integration(otherTeam);
        expectedStatus = 400;
      } else if (source === "wrong_kind_integration") {
        integrationId = await awsRedshiftRoleIntegration();
        expectedStatus = 400;
      } else {
        integrationId = 999999;
        expectedStatus = 400;
      }
      const response = await create({
        type: "Redshift",
        config: {
          user: "user",
          password: "my-password",
          database: "my-db",
          host: HOST,
          mode: "COPY",
          copy_inputs: {
            s3_bucket: "my-production-s3-bucket",
            region_name: "us-east-1",
            s3_key_prefix: "posthog-events/",
            bucket_credentials: integrationId,
            authorization: integrationId,
          },
        },
        integration: await awsRedshiftRoleIntegration(),
      });
      assertStatus(response, expectedStatus);
      if (expectedStatus === 400)
        expect(response.body.detail).toContain("does not reference an AWS S3 integration");
    },
  );
});
