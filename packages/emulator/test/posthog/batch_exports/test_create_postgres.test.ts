/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_postgres.py (revision
 * 617ee3f5): Postgres exports need a `postgresql` integration on create, and its host passes the SSRF
 * guard. `override_settings(TEST=0, DEBUG=0)` is the emulator's normal mode: it behaves like production.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_postgres.py");
const { world } = usePostHog();

const createPostgresqlIntegration = (host: string) =>
  world.createIntegration(
    "postgresql",
    { host, port: 5432, user: "user", ssl_mode: "require", ssl_root_cert: null },
    { sensitive: { password: "my-password" } },
  );

const create = (destination: Record<string, unknown>) =>
  world.client().post(projectPath(world.team, "batch_exports"), {
    name: "my-postgres-destination",
    destination,
    interval: "hour",
  });

describe("test_create_postgres.py", () => {
  it(cite("test_creating_postgres_batch_export_using_integration"), async () => {
    const integration = await createPostgresqlIntegration("8.8.8.8");
    const response = await create({
      type: "Postgres",
      config: { database: "my-db", schema: "public", table_name: "my_events" },
      integration,
    });
    assertStatus(response, 201);
    expect(response.body.destination.integration).toBe(integration);
  });

  it.each(["169.254.169.254", "127.0.0.1", "10.0.0.1", "192.168.1.1"])(
    newerSource(
      cite("test_creating_postgres_batch_export_validates_integration_host", "%s"),
      "products/batch_exports/backend/presentation/views/batch_export/exports.py and posthog/security/url_validation.py UNREACHABLE_HOST_MESSAGE",
    ),
    async (host) => {
      const integration = await createPostgresqlIntegration(host);
      const response = await create({
        type: "Postgres",
        config: { database: "my-db", schema: "public", table_name: "my_events" },
        integration,
      });
      assertStatus(response, 400);
      // Settled from the newest source (exports.py maps validate_external_host's refusal of an internal
      // host to UNREACHABLE_HOST_MESSAGE, posthog/security/url_validation.py): the test's revision
      // expects the older "Invalid host: '<host>'" wording.
      expect(response.body.detail).toBe(
        "Could not reach this host. Check that the hostname is correct and reachable from the internet.",
      );
    },
  );

  it(cite("test_creating_postgres_batch_export_without_integration_is_rejected"), async () => {
    const response = await create({
      type: "Postgres",
      config: {
        user: "user",
        password: "my-password",
        host: "8.8.8.8",
        port: 5432,
        database: "my-db",
        schema: "public",
        table_name: "my_events",
      },
    });
    assertStatus(response, 400);
    expect(response.body.detail).toContain("Integration is required for Postgres batch exports");
  });
});
