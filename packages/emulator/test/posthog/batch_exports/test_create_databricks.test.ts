/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_databricks.py (revision
 * 7286c363): Databricks exports need a complete `databricks` integration. The Temporal schedule
 * assertions (hourly interval, workflow `databricks-export`) have no counterpart in the emulator.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_databricks.py");
const { world } = usePostHog();

const CONFIG = {
  http_path: "my-http-path",
  catalog: "my-catalog",
  schema: "my-schema",
  table_name: "my-table-name",
};

const create = (destination: Record<string, unknown>) =>
  world.client().post(projectPath(world.team, "batch_exports"), {
    name: "my-databricks-destination",
    destination,
    interval: "hour",
  });

const databricksIntegration = () =>
  world.createIntegration(
    "databricks",
    { server_hostname: "my-server-hostname" },
    { sensitive: { client_id: "my-client-id", client_secret: "my-client-secret" } },
  );

describe("test_create_databricks.py", () => {
  it(cite("test_creating_databricks_batch_export_using_integration"), async () => {
    const destination = {
      type: "Databricks",
      config: { ...CONFIG },
      integration: await databricksIntegration(),
    };
    const response = await create(destination);
    assertStatus(response, 201);
    expect(response.body.destination).toEqual(destination);
  });

  it(cite("test_creating_databricks_batch_export_fails_if_integration_is_missing"), async () => {
    const response = await create({ type: "Databricks", config: { ...CONFIG } });
    assertStatus(response, 400);
    expect(response.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail: "Integration is required for Databricks batch exports",
      attr: "destination",
    });
  });

  it(cite("test_creating_databricks_batch_export_fails_if_integration_is_invalid"), async () => {
    const integration = await world.createIntegration(
      "databricks",
      { server_hostname: "my-server-hostname" },
      { sensitive: { client_id: "my-client-id" } },
    );
    const response = await create({ type: "Databricks", config: { ...CONFIG }, integration });
    assertStatus(response, 400);
    expect(response.body.detail).toBe("Databricks integration is not valid: 'client_secret' missing");
  });

  it(cite("test_creating_databricks_batch_export_fails_if_integration_does_not_exist"), async () => {
    const response = await create({ type: "Databricks", config: { ...CONFIG }, integration: 999 });
    assertStatus(response, 400);
    expect(response.body).toEqual({
      type: "validation_error",
      code: "does_not_exist",
      detail: 'Invalid pk "999" - object does not exist.',
      attr: "destination__integration",
    });
  });

  it(cite("test_creating_databricks_batch_export_fails_if_integration_is_not_the_correct_type"), async () => {
    const integration = await world.createIntegration(
      "slack",
      { server_hostname: "my-server-hostname" },
      { sensitive: { client_id: "my-client-id" } },
    );
    const response = await create({ type: "Databricks", config: { ...CONFIG }, integration });
    assertStatus(response, 400);
    expect(response.body.detail).toBe("Integration is not a Databricks integration.");
  });
});
