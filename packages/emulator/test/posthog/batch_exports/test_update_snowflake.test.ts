/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_update_snowflake.py (revision
 * 19194eff): PATCHing Snowflake exports. `create_integration_backed_snowflake_export` (fixtures.py)
 * creates a `snowflake` integration of the team and an export that uses it.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, notPorted, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_update_snowflake.py");
const { world } = usePostHog();

const path = (id = "") => projectPath(world.team, `batch_exports/${id ? `${id}/` : ""}`);

async function integrationBackedSnowflakeExport() {
  const integration = await world.createIntegration(
    "snowflake",
    { name: "prod-snowflake", account: "my-account", user: "svc", authentication_type: "password" },
    { sensitive: { password: "secret" } },
  );
  const response = await world.client().post(path(), {
    name: "my-export",
    interval: "hour",
    destination: {
      type: "Snowflake",
      config: { database: "my-db", warehouse: "COMPUTE_WH", schema: "public" },
      integration,
    },
  });
  assertStatus(response, 201);
  return { integration, batchExport: response.body as { id: string } };
}

const INLINE_GONE =
  "the test's set-up cannot be made in the newest service: it creates a Snowflake export with inline credentials (account, user, password, authentication_type), which the newest service no longer has as config fields (destinations.py); the switching it then checks cannot happen";

describe("test_update_snowflake.py", () => {
  notPorted(cite("test_can_patch_snowflake_batch_export_credentials"), INLINE_GONE);
  notPorted(cite("test_switching_snowflake_auth_type_to_keypair_requires_private_key"), INLINE_GONE);

  it.each([null, "omitted"])(
    newerSource(
      cite("test_updating_snowflake_batch_export_rejects_removing_integration", "%s"),
      "products/batch_exports/backend/presentation/views/batch_export/exports.py `validate_destination` (Snowflake branch)",
    ),
    async (integrationValue) => {
      const { integration, batchExport } = await integrationBackedSnowflakeExport();
      const destination: Record<string, unknown> = { type: "Snowflake", config: {} };
      if (integrationValue === null) destination.integration = null;
      const response = await world.client().patch(path(batchExport.id), { destination });
      // Settled from the newest source (exports.py `validate_destination`, Snowflake branch): a PATCH
      // that leaves `integration` out keeps the export's own, and an explicit null is refused as
      // "Integration is required for Snowflake batch exports". The test's revision expected both to be
      // refused with a Redshift-style "Cannot remove the integration ..." message.
      if (integrationValue === null) {
        assertStatus(response, 400);
        expect(response.body.detail).toBe("Integration is required for Snowflake batch exports");
      } else {
        assertStatus(response, 200);
        expect(response.body.destination.integration).toBe(integration);
      }
    },
  );

  it(
    cite("test_updating_integration_backed_snowflake_export_allows_config_patch_with_integration"),
    async () => {
      const { integration, batchExport } = await integrationBackedSnowflakeExport();
      const response = await world.client().patch(path(batchExport.id), {
        destination: { type: "Snowflake", config: { schema: "new_schema" }, integration },
      });
      assertStatus(response, 200);
      expect(response.body.destination.config.schema).toBe("new_schema");
      expect(response.body.destination.integration).toBe(integration);
    },
  );
});
