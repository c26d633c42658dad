/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_update_postgres.py (revision
 * 705fc527): PATCHing Postgres exports backed by a `postgresql` integration, and legacy ones that keep
 * inline credentials. `create_postgresql_integration` is an integration of the team (the test module
 * test_create_postgres.py's helper); the legacy export is written straight to the emulator's state.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../harness.js";
import { exportsPath, getBatchExportOk } from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_update_postgres.py");
const { world } = usePostHog();

async function connectionBackedPostgresExport() {
  const integration = await world.createIntegration(
    "postgresql",
    { host: "8.8.8.8", port: 5432, user: "user", ssl_mode: "require", ssl_root_cert: null },
    { sensitive: { password: "my-password" } },
  );
  const response = await world.client().post(exportsPath(world.team), {
    name: "my-postgres-destination",
    interval: "hour",
    destination: {
      type: "Postgres",
      config: { database: "my-db", schema: "public", table_name: "my_events" },
      integration,
    },
  });
  assertStatus(response, 201);
  return response.body as { id: string };
}

const patch = (id: string, config: Record<string, unknown>) =>
  world.client().patch(exportsPath(world.team, `${id}/`), { destination: { type: "Postgres", config } });

describe("test_update_postgres.py", () => {
  it.each([
    ["user", "rotated"],
    ["password", "rotated"],
    ["host", "8.8.4.4"],
    ["port", 5433],
  ] as const)(
    cite("test_updating_connection_backed_postgres_export_rejects_inline_connection_settings", "%s-%s"),
    async (field, value) => {
      const batchExport = await connectionBackedPostgresExport();
      const response = await patch(batchExport.id, { [field]: value });
      assertStatus(response, 400);
      expect(response.body.detail).toContain(`'${field}'`);
      const after = await getBatchExportOk(world, world.team, batchExport.id);
      expect(after.destination.config).not.toHaveProperty(field);
    },
  );

  it(cite("test_updating_connection_backed_postgres_export_allows_other_config"), async () => {
    const batchExport = await connectionBackedPostgresExport();
    const response = await patch(batchExport.id, { table_name: "other_events" });
    assertStatus(response, 200);
    expect(response.body.destination.config.table_name).toBe("other_events");
  });

  it(cite("test_updating_inline_credential_postgres_export_still_accepts_them"), async () => {
    const id = "0190f1d2-0000-7000-8000-00000000e002";
    await world.insert("batch_exports", {
      id,
      team_id: world.team,
      name: "my-production-s3-bucket-destination",
      interval: "hour",
      destination: {
        type: "Postgres",
        config: {
          user: "my-user",
          password: "my-password",
          host: "8.8.8.8",
          port: 5432,
          database: "my-db",
          schema: "public",
          table_name: "my_events",
        },
      },
    });
    const response = await patch(id, { password: "rotated" });
    assertStatus(response, 200);
  });
});
