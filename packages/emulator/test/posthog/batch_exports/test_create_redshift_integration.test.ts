/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_redshift_integration.py
 * (revision f1420085). This revision names the integration kind `IntegrationKind.REDSHIFT`; the newest
 * source accepts only `aws-redshift` for Redshift exports (exports.py `validate_destination`), so the
 * set-up creates that kind. The SSRF cases run as production (the emulator's normal mode), which is
 * what `override_settings(TEST=0, DEBUG=0)` asks for.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_redshift_integration.py");
const { world } = usePostHog();

const createRedshiftIntegration = () =>
  world.createIntegration(
    "aws-redshift",
    { name: "prod-redshift", authentication_type: "password", user: "batch_exporter" },
    { sensitive: { password: "secret" } },
  );

const create = (destination: Record<string, unknown>) =>
  world.client().post(projectPath(world.team, "batch_exports"), {
    name: "my-redshift-destination",
    destination,
    interval: "hour",
  });

const CONFIG = { database: "analytics", port: 5439, schema: "public", table_name: "events", mode: "INSERT" };

describe("test_create_redshift_integration.py", () => {
  it(cite("test_creating_redshift_batch_export_using_integration"), async () => {
    const integration = await createRedshiftIntegration();
    const response = await create({ type: "Redshift", config: { ...CONFIG, host: "8.8.8.8" }, integration });
    assertStatus(response, 201);
    expect(response.body.destination.integration).toBe(integration);
    expect(response.body.destination.config).not.toHaveProperty("password");
    expect(response.body.destination.config.host).toBe("8.8.8.8");
  });

  it(cite("test_creating_redshift_batch_export_without_integration_is_rejected"), async () => {
    const response = await create({
      type: "Redshift",
      config: { ...CONFIG, user: "user", password: "my-password", host: "8.8.8.8" },
    });
    assertStatus(response, 400);
    expect(response.body.detail).toContain("Integration is required for Redshift batch exports");
  });

  it(cite("test_creating_redshift_batch_export_rejects_mismatched_integration_kind"), async () => {
    const integration = await world.createIntegration(
      "aws-s3",
      { name: "prod-aws", aws_account_id: "123456789012" },
      { sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
    );
    const { port: _port, ...config } = CONFIG;
    const response = await create({ type: "Redshift", config, integration });
    assertStatus(response, 400);
    expect(response.body.detail).toBe("Integration is not a Redshift integration.");
  });

  it.each(["169.254.169.254", "127.0.0.1", "10.0.0.1", "192.168.1.1"])(
    newerSource(
      cite("test_creating_redshift_batch_export_validates_destination_host", "%s"),
      "posthog/security/url_validation.py UNREACHABLE_HOST_MESSAGE",
    ),
    async (host) => {
      const integration = await createRedshiftIntegration();
      const response = await create({ type: "Redshift", config: { ...CONFIG, host }, integration });
      assertStatus(response, 400);
      // Settled from the newest source (url_validation.py UNREACHABLE_HOST_MESSAGE for an internal host):
      // the test's revision expects "Invalid host: '<host>'".
      expect(response.body.detail).toBe(
        "Could not reach this host. Check that the hostname is correct and reachable from the internet.",
      );
    },
  );
});
