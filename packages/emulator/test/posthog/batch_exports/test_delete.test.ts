/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_delete.py (revision 327ae909). The
 * AwsS3 body names an `aws-s3` integration instead of the inline keys the newest serializer refuses
 * (common.ts). The emulator runs no Temporal schedule: `describe_schedule` raising after a delete has no
 * counterpart and is left out. The backfill workflow the test waits on is the backfill record: the
 * emulator completes a backfill as it creates it, so the port puts it back in flight (`Running`) before
 * the delete, as the test's wait for scheduled executions does, and its `CANCELED` workflow status is
 * the record's `Cancelled`.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, notPorted, usePostHog } from "../harness.js";
import { createBatchExportOk, exportsPath, s3BatchExportData } from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_delete.py");
const { world } = usePostHog();

async function deleteOk(team: number, id: string) {
  const response = await world.client().delete(exportsPath(team, id));
  assertStatus(response, 204);
}

describe("test_delete.py", () => {
  it(cite("test_delete_batch_export"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    await deleteOk(world.team, batchExport.id);
    const response = await world.client().get(exportsPath(world.team, batchExport.id));
    assertStatus(response, 404);
  });

  it(cite("test_delete_batch_export_cancels_backfills"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    const backfill = await world.client().post(exportsPath(world.team, `${batchExport.id}/backfills`), {
      start_at: "2023-10-23T00:00:00+00:00",
      end_at: "2023-10-24T00:00:00+00:00",
    });
    assertStatus(backfill, 201);
    await world.update("backfills", (f) => f.id === backfill.body.backfill_id, { status: "Running" });

    await deleteOk(world.team, batchExport.id);
    const response = await world.client().get(exportsPath(world.team, batchExport.id));
    assertStatus(response, 404);

    const workflow = (await world.state()).backfills.find((f) => f.id === backfill.body.backfill_id);
    expect(workflow?.status).toBe("Cancelled");
  });

  it(cite("test_cannot_delete_export_of_other_organizations"), async () => {
    const anotherOrganization = await world.createOrganization("Another Org");
    await world.createTeam(anotherOrganization);
    const anotherUser = await world.createUser("another-test@user.com", anotherOrganization);
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    let response = await world.client(anotherUser).delete(exportsPath(world.team, batchExport.id));
    assertStatus(response, 403);

    // Make sure we can still get the export with the right user
    response = await world.client().get(exportsPath(world.team, batchExport.id));
    assertStatus(response, 200);
  });

  it(cite("test_deletes_are_partitioned_by_team_id"), async () => {
    const anotherTeam = await world.createTeam(world.org);
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    // Try to delete with the other team
    let response = await world.client().delete(exportsPath(anotherTeam, batchExport.id));
    assertStatus(response, 404);

    // Make sure we can still get the export with the right user
    response = await world.client().get(exportsPath(world.team, batchExport.id));
    assertStatus(response, 200);
  });

  notPorted(
    cite("test_delete_batch_export_even_without_underlying_schedule"),
    "removes the export's Temporal schedule behind the API's back, a state the API cannot produce (the emulator runs no scheduler)",
  );
});
