/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_get.py (revision d96ff7b3).
 *
 * Settled from the newest service (service-api.md §0): the test's AwsS3 body carries inline keys, which
 * the newest serializer refuses for AwsS3 (credentials come from an `aws-s3` integration), so the body
 * here names an integration instead and the stored config is compared as the newest service returns it:
 * the three keys of the test plus `legacy_parquet_extension: false`, which every object-storage export
 * created through the newest API gets.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, usePostHog } from "../harness.js";
import { createBatchExportOk, exportsPath, getBatchExportOk, s3BatchExportData } from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_get.py");
const { world } = usePostHog();

describe("test_get.py", () => {
  it.each([
    ["hour", "UTC", null, null],
    ["day", "UTC", null, null],
    ["day", "US/Pacific", null, 2],
    ["week", "UTC", 1, 0],
    ["week", "Asia/Kathmandu", 1, 2],
  ] as const)(
    newerSource(
      cite("test_can_get_exports_for_your_organizations", "%s-%s-%s-%s"),
      "products/batch_exports/backend/api/destinations.py (object-storage exports created through the API get `legacy_parquet_extension: false`)",
    ),
    async (interval, timezone, offsetDay, offsetHour) => {
      const created = await createBatchExportOk(
        world,
        world.team,
        await s3BatchExportData(world, world.team, {
          interval,
          timezone,
          offset_day: offsetDay,
          offset_hour: offsetHour,
        }),
      );
      const batchExport = await getBatchExportOk(world, world.team, created.id);

      let expectedOffsetDay: number | null = offsetDay;
      if (interval === "week") expectedOffsetDay = expectedOffsetDay || 0;
      let expectedOffsetHour: number | null = offsetHour;
      if (interval === "day" || interval === "week") expectedOffsetHour = expectedOffsetHour || 0;

      expect(batchExport.interval).toBe(interval);
      expect(batchExport.timezone).toBe(timezone);
      expect(batchExport.offset_day).toBe(expectedOffsetDay);
      expect(batchExport.offset_hour).toBe(expectedOffsetHour);
      // Settled (module comment): the newest service adds legacy_parquet_extension on create.
      expect(batchExport.destination.config).toEqual({
        bucket_name: "my-production-s3-bucket",
        region: "us-east-1",
        prefix: "posthog-events/",
        legacy_parquet_extension: false,
      });
    },
  );

  it(cite("test_cannot_get_exports_for_other_organizations"), async () => {
    const anotherOrganization = await world.createOrganization("Another Org");
    const anotherUser = await world.createUser("another-test@user.com", anotherOrganization);
    const created = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    const response = await world.client(anotherUser).get(exportsPath(world.team, created.id));
    assertStatus(response, 403);
  });

  it(cite("test_batch_exports_are_partitioned_by_team"), async () => {
    const anotherTeam = await world.createTeam(world.org);
    let batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    let response = await world.client().get(exportsPath(anotherTeam, batchExport.id));
    assertStatus(response, 404);

    // And switch the teams around for good measure.
    batchExport = await createBatchExportOk(world, anotherTeam, await s3BatchExportData(world, anotherTeam));
    response = await world.client().get(exportsPath(world.team, batchExport.id));
    assertStatus(response, 404);
  });

  it(cite("test_serialization_of_destination_config"), async () => {
    // Created straight in the state, like the test's ORM objects: a legacy inline-credential Postgres
    // export, which the API no longer creates.
    const id = "0190f1d2-0000-7000-8000-00000000e001";
    await world.insert("batch_exports", {
      id,
      team_id: world.team,
      name: "my-export",
      interval: "day",
      destination: {
        type: "Postgres",
        config: {
          host: "127.0.0.1",
          port: 5432,
          user: "test",
          password: "test",
          schema: "public",
          database: "test",
          table_name: "batch_export_events",
          has_self_signed_cert: false,
        },
      },
    });

    const batchExport = await getBatchExportOk(world, world.team, id);
    expect(batchExport.destination.config).toEqual({
      host: "127.0.0.1",
      port: 5432,
      schema: "public",
      database: "test",
      table_name: "batch_export_events",
      has_self_signed_cert: false,
    });
  });
});
