/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_snowflake.py (revision
 * 2a0ef58e): Snowflake exports authenticate through a `snowflake` integration. The fixture
 * `create_integration_backed_snowflake_export` (fixtures.py) creates the integration in the team; the
 * Temporal schedule assertion (workflow `snowflake-export`) has no counterpart in the emulator.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_snowflake.py");
const { world } = usePostHog();

const create = (destination: Record<string, unknown>) =>
  world
    .client()
    .post(projectPath(world.team, "batch_exports"), { name: "my-export", interval: "hour", destination });

describe("test_create_snowflake.py", () => {
  it.each([
    ["password", { password: "abc123" }],
    ["keypair", { private_key: "SECRET_KEY" }],
  ])(
    newerSource(
      cite("test_create_snowflake_batch_export_with_inline_credentials_is_rejected", "%s"),
      "products/batch_exports/backend/api/destinations.py `validate` (unknown config fields answer first)",
    ),
    async (authType, credentials) => {
      const response = await create({
        type: "Snowflake",
        config: {
          account: "my-account",
          user: "user",
          database: "my-db",
          warehouse: "COMPUTE_WH",
          schema: "public",
          table_name: "my_events",
          authentication_type: authType,
          ...credentials,
        },
      });
      assertStatus(response, 400);
      // Settled from the newest source (destinations.py `validate` runs before exports.py
      // `validate_destination`): inline credentials are not fields of SnowflakeBatchExportInputs any
      // more, so the unknown-field check answers before the integration requirement the test's
      // revision names ("Integration is required for Snowflake batch exports").
      expect(response.body.detail).toContain("Configuration has unknown field/s: 'account'");
    },
  );

  it(cite("test_create_snowflake_batch_export_using_integration"), async () => {
    const integration = await world.createIntegration(
      "snowflake",
      { name: "prod-snowflake", account: "my-account", user: "svc", authentication_type: "password" },
      { sensitive: { password: "secret" } },
    );
    const response = await create({
      type: "Snowflake",
      config: { database: "my-db", warehouse: "COMPUTE_WH", schema: "public" },
      integration,
    });
    assertStatus(response, 201);
    expect(response.body.destination.type).toBe("Snowflake");
    expect(response.body.destination.config).not.toHaveProperty("password");
  });

  it(
    newerSource(
      cite("test_create_snowflake_batch_export_rejects_mismatched_integration_kind"),
      "products/batch_exports/backend/presentation/views/batch_export/exports.py `validate_destination` (SnowflakeIntegration's own check)",
    ),
    async () => {
      const integration = await world.createIntegration(
        "aws-s3",
        { name: "prod-aws", aws_account_id: "123456789012" },
        { sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
      );
      const response = await create({
        type: "Snowflake",
        config: { database: "my-db", warehouse: "COMPUTE_WH", schema: "public" },
        integration,
      });
      assertStatus(response, 400);
      // Settled from the newest source (exports.py `validate_destination` builds SnowflakeIntegration,
      // whose own check words it): the test's revision expects "Integration is not a Snowflake integration.".
      expect(response.body.detail).toBe(
        "Integration provided is not a Snowflake integration (got kind='aws-s3')",
      );
    },
  );
});
