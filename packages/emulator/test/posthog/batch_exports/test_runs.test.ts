/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_runs.py (newest stored revision, with
 * the status, ordering and date-window tests). The `aws_s3_integration` fixture is an integration of the
 * team (the body's inline keys are dropped: the newest serializer refuses them next to an integration).
 * `create_run` and `.update(created_at=...)` write straight to the emulator's state (common.ts).
 *
 * `test_cancelling_a_batch_export_run` slows the backfill's producer down so its first run is still in
 * flight, the one run so far, when the test lists runs. The emulator completes a backfill as it creates
 * it, so the port holds it the same way: after the backfill is requested through the API, the backfill
 * and its first run are put back in flight (`Running`) and its later runs, not started yet, removed.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../harness.js";
import {
  createBatchExportOk,
  createBatchExportOrm,
  createRun,
  exportsPath,
  s3BatchExportData,
} from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_runs.py");
const { world } = usePostHog();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const getRuns = (
  team: number,
  id: string,
  query: Record<string, string | string[]> = {},
  actor = world.user,
) => world.client(actor).get(exportsPath(team, `${id}/runs`), query);

async function getRunsOk(team: number, id: string, query: Record<string, string | string[]> = {}) {
  const response = await getRuns(team, id, query);
  assertStatus(response, 200);
  return response.body as { results: Array<{ id: string; status: string }> };
}

describe("test_runs.py", () => {
  it(cite("test_can_get_export_runs_for_your_organizations"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    const response = await getRuns(world.team, batchExport.id);
    assertStatus(response, 200);
  });

  it(cite("test_cannot_get_exports_for_other_organizations"), async () => {
    const anotherOrganization = await world.createOrganization("Another Org");
    const anotherUser = await world.createUser("another-test@user.com", anotherOrganization);
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    const response = await getRuns(world.team, batchExport.id, {}, anotherUser);
    assertStatus(response, 403);
  });

  it(cite("test_batch_exports_are_partitioned_by_team"), async () => {
    const anotherTeam = await world.createTeam(world.org);
    let batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));

    let response = await world.client().get(exportsPath(anotherTeam, batchExport.id));
    assertStatus(response, 404);

    // And switch the teams around for good measure (integrations are team-scoped).
    batchExport = await createBatchExportOk(world, anotherTeam, await s3BatchExportData(world, anotherTeam));
    response = await world.client().get(exportsPath(world.team, batchExport.id));
    assertStatus(response, 404);
  });

  it(cite("test_cancelling_a_batch_export_run"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    const backfill = await world.client().post(exportsPath(world.team, `${batchExport.id}/backfills`), {
      start_at: "2023-10-23T00:00:00+00:00",
      end_at: "2023-10-24T00:00:00+00:00",
    });
    assertStatus(backfill, 201);
    await world.edit((s) => {
      const mine = s.runs
        .filter((r) => r.batch_export === batchExport.id)
        .sort((x, y) => Date.parse(x.data_interval_end) - Date.parse(y.data_interval_end));
      const [first, ...later] = mine;
      if (first) first.status = "Running";
      s.runs = s.runs.filter((r) => !later.includes(r));
      for (const f of s.backfills) if (f.id === backfill.body.backfill_id) f.status = "Running";
    });

    let data = await getRunsOk(world.team, batchExport.id);
    expect(data.results.length).toBe(1);
    let run = data.results[0];
    expect(run?.status).toBe("Running");

    const cancelled = await world
      .client()
      .post(exportsPath(world.team, `${batchExport.id}/runs/${run?.id}/cancel`));
    assertStatus(cancelled, 200);
    expect(cancelled.body.cancelled).toBe(true);

    data = await getRunsOk(world.team, batchExport.id);
    expect(data.results.length).toBe(1);
    run = data.results[0];
    expect(run?.status).toBe("Cancelled");
  });

  it.each([null, "-data_interval_start"])(
    cite("test_get_batch_export_runs_filtered_by_status", "%s"),
    async (ordering) => {
      const batchExport = await createBatchExportOrm(world);
      // Runs are only returned when their data interval falls inside the default window of the last 7 days.
      const intervalEnd = world.now() - HOUR;
      const runs: Record<string, string> = {};
      const statuses = ["Completed", "Failed", "FailedRetryable", "Running"];
      for (const [hours, status] of statuses.entries()) {
        runs[status] = await createRun(
          world,
          batchExport,
          status,
          iso(intervalEnd - (hours + 1) * HOUR),
          iso(intervalEnd - hours * HOUR),
        );
      }
      const queryParams: Record<string, string> = ordering ? { ordering } : {};

      // List runs filtered by failed statuses, asserting that only failed runs are returned
      let data = await getRunsOk(world.team, batchExport, {
        status: ["Failed", "FailedRetryable"],
        ...queryParams,
      });
      expect(new Set(data.results.map((r) => r.id))).toEqual(new Set([runs.Failed, runs.FailedRetryable]));

      // List all runs, without any status filter, asserting that all runs are returned
      data = await getRunsOk(world.team, batchExport, queryParams);
      expect(new Set(data.results.map((r) => r.id))).toEqual(new Set(Object.values(runs)));
    },
  );

  it(cite("test_get_batch_export_runs_rejects_unknown_status"), async () => {
    const batchExport = await createBatchExportOrm(world);
    const response = await getRuns(world.team, batchExport, { status: ["NotAStatus"] });
    assertStatus(response, 400);
  });

  it(cite("test_get_batch_export_runs_date_filter_depends_on_ordering"), async () => {
    const batchExport = await createBatchExportOrm(world);
    const now = world.now();
    const daysAgo = (days: number) => now - days * DAY;

    // Backfilled today for a 40-day-old interval
    const runOldInterval = await createRun(
      world,
      batchExport,
      "Completed",
      iso(daysAgo(40) - HOUR),
      iso(daysAgo(40)),
    );
    // Backfilled 10 days ago for a 20-day-old interval.
    const runMidInterval = await createRun(
      world,
      batchExport,
      "Completed",
      iso(daysAgo(20) - HOUR),
      iso(daysAgo(20)),
      { created_at: iso(daysAgo(10)) },
    );
    // A normal, on-schedule run: created right as its 5-day-old interval ended.
    const runRecentInterval = await createRun(
      world,
      batchExport,
      "Completed",
      iso(daysAgo(5) - HOUR),
      iso(daysAgo(5)),
      { created_at: iso(daysAgo(5)) },
    );

    // Default ordering sorts and filters by created_at; `start` must have no effect.
    let data = await getRunsOk(world.team, batchExport, { after: "-8d", start: "-25d" });
    expect(data.results.map((r) => r.id)).toEqual([runOldInterval, runRecentInterval]);

    // Ordering by data_interval_start sorts and filters by the interval; `before` must have no effect.
    data = await getRunsOk(world.team, batchExport, {
      ordering: "-data_interval_start",
      start: "-25d",
      before: "-8d",
    });
    expect(data.results.map((r) => r.id)).toEqual([runRecentInterval, runMidInterval]);
  });

  it(cite("test_cannot_cancel_completed_batch_export_run"), async () => {
    const batchExport = await createBatchExportOrm(world);
    const run = await createRun(
      world,
      batchExport,
      "Completed",
      "2023-10-23T00:00:00Z",
      "2023-10-24T00:00:00Z",
    );

    const response = await world.client().post(exportsPath(world.team, `${batchExport}/runs/${run}/cancel`));
    assertStatus(response, 400);
    expect(response.body.detail).toBe("Cannot cancel a run that is in 'Completed' status");

    const stored = (await world.state()).runs.find((r) => r.id === run);
    expect(stored?.status).toBe("Completed");
  });
});
