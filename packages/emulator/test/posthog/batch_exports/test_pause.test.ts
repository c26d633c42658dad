/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_pause.py (revision 728597eb). The
 * emulator runs no Temporal schedule, so `describe_schedule(...).schedule.state.paused` has no
 * counterpart: the export's `paused` is the one state, and the schedule assertions are left out. The
 * AwsS3 body names an `aws-s3` integration instead of the inline keys the newest serializer refuses
 * (common.ts). The patched `backfill_export` is the backfill the emulator records: the call's arguments
 * are read back from the export's backfills list. Where the test compares `last_updated_at` across a
 * create and a pause, the port waits 2 ms between them (the Temporal round trips of the original take
 * longer than the clock's resolution).
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, notPorted, usePostHog } from "../harness.js";
import { createBatchExportOk, exportsPath, getBatchExportOk, s3BatchExportData } from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_pause.py");
const { world } = usePostHog();

const pause = (team: number, id: string, actor = world.user) =>
  world.client(actor).post(exportsPath(team, `${id}/pause`));
const unpause = (team: number, id: string, actor = world.user, backfill = false) =>
  world.client(actor).post(exportsPath(team, `${id}/unpause`), { backfill });

async function pauseOk(team: number, id: string) {
  const response = await pause(team, id);
  assertStatus(response, 200);
}

async function unpauseOk(team: number, id: string, backfill = false) {
  const response = await unpause(team, id, world.user, backfill);
  assertStatus(response, 200);
}

describe("test_pause.py", () => {
  it(cite("test_pause_and_unpause_batch_export"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    expect(batchExport.paused).toBe(false);

    await pauseOk(world.team, batchExport.id);
    let data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.paused).toBe(true);

    await unpauseOk(world.team, batchExport.id);
    data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.paused).toBe(false);
  });

  it(cite("test_cannot_pause_and_unpause_batch_exports_of_other_organizations"), async () => {
    const otherOrganization = await world.createOrganization("Other Test Org");
    await world.createTeam(otherOrganization);
    const otherUser = await world.createUser("another-test@user.com", otherOrganization);
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    let response = await pause(world.team, batchExport.id, otherUser);
    assertStatus(response, 403);

    // Make sure it's still running
    let data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.paused).toBe(false);

    // Now pause it for real, as the correct user
    await pauseOk(world.team, batchExport.id);

    // Now check we can't unpause it as the other user.
    response = await unpause(world.team, batchExport.id, otherUser);
    assertStatus(response, 403);

    // Make sure it's still paused
    data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.paused).toBe(true);
  });

  it(cite("test_pause_and_unpause_are_partitioned_by_team_id"), async () => {
    const otherTeam = await world.createTeam(world.org);
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    // True pausing using the other team
    let response = await pause(otherTeam, batchExport.id);
    assertStatus(response, 404);

    // Make sure it's still running
    let data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.paused).toBe(false);

    // Now pause it for real, as the correct team
    await pauseOk(world.team, batchExport.id);

    // Now check we can't unpause it as the other team.
    response = await unpause(otherTeam, batchExport.id);
    assertStatus(response, 404);

    // Make sure it's still paused
    data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.paused).toBe(true);
  });

  it(cite("test_pause_batch_export_that_is_already_paused"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    expect(batchExport.paused).toBe(false);

    await world.sleep(2);
    await pauseOk(world.team, batchExport.id);
    let data = await getBatchExportOk(world, world.team, batchExport.id);
    const lastUpdatedAt = data.last_updated_at;
    expect(lastUpdatedAt > batchExport.last_updated_at).toBe(true);
    expect(data.paused).toBe(true);

    await world.sleep(2);
    await pauseOk(world.team, batchExport.id);
    data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.last_updated_at).toBe(lastUpdatedAt);
  });

  it(cite("test_unpause_batch_export_that_is_already_unpaused"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    expect(batchExport.paused).toBe(false);
    const lastUpdatedAt = batchExport.last_updated_at;

    await world.sleep(2);
    await unpauseOk(world.team, batchExport.id);
    const data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(data.last_updated_at).toBe(lastUpdatedAt);
  });

  notPorted(
    cite("test_pause_non_existent_batch_export"),
    "removes the export's Temporal schedule behind the API's back, a state the API cannot produce (the emulator runs no scheduler)",
  );

  it(cite("test_unpause_can_trigger_a_backfill"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    expect(batchExport.paused).toBe(false);

    await world.sleep(2);
    await pauseOk(world.team, batchExport.id);
    await world.sleep(2);
    await unpauseOk(world.team, batchExport.id, true);

    const data = await getBatchExportOk(world, world.team, batchExport.id);
    expect(batchExport.last_updated_at < data.last_updated_at).toBe(true);
    // `backfill_export(ANY, id, team, start_at=last_paused_at, end_at=last_updated_at)` called once.
    const backfills = await world.client().get(exportsPath(world.team, `${batchExport.id}/backfills`));
    assertStatus(backfills, 200);
    expect(backfills.body.results).toHaveLength(1);
    const [backfill] = backfills.body.results;
    expect(backfill.batch_export).toBe(batchExport.id);
    expect(backfill.team).toBe(world.team);
    expect(Date.parse(backfill.start_at)).toBe(Date.parse(data.last_paused_at));
    expect(Date.parse(backfill.end_at)).toBe(Date.parse(data.last_updated_at));
  });
});
