/**
 * Port of PostHog's products/batch_exports/backend/tests/api/backfills/test_get.py (revision 07be8252).
 * The `create_destination` / `create_batch_export` / `create_backfill` / `create_run` fixtures write
 * straight to the emulator's state (../common.ts); `TEST_TIME` is the emulator's clock, to the second.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../../harness.js";
import { createBackfill, createBatchExportOrm, createRun, exportsPath } from "../common.js";

const cite = citing("products/batch_exports/backend/tests/api/backfills/test_get.py");
const { world } = usePostHog();

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** `strftime("%Y-%m-%dT%H:%M:%SZ")` */
const strftime = (ms: number) => `${iso(ms).slice(0, 19)}Z`;
const at = (text: string) => Date.parse(text);

type Progress = { total_runs: number; finished_runs: number; progress: number } | null;
/** [status, start_at, end_at, completed_runs, expected_progress]; "now-N" is TEST_TIME minus N minutes. */
const CASES: Array<[string, string | null, string | null, number, Progress]> = [
  // a completed backfill with 1 run but no runs with backfill_id (backwards compatibility)
  [
    "Completed",
    "2021-01-01T00:00:00Z",
    "2021-01-01T01:00:00Z",
    0,
    { total_runs: 1, finished_runs: 1, progress: 1 },
  ],
  [
    "Completed",
    "2021-01-01T00:00:00Z",
    "2021-01-01T01:00:00Z",
    1,
    { total_runs: 1, finished_runs: 1, progress: 1 },
  ],
  // backfill failed so progress is not meaningful
  ["Failed", "2021-01-01T00:00:00Z", "2021-01-01T01:00:00Z", 0, null],
  // backfill was cancelled so progress is not meaningful
  ["Cancelled", "2021-01-01T00:00:00Z", "2021-01-01T02:00:00Z", 1, null],
  // backfill is half way through so progress is 0.5
  [
    "Running",
    "2021-01-01T00:00:00Z",
    "2021-01-01T02:00:00Z",
    1,
    { total_runs: 2, finished_runs: 1, progress: 0.5 },
  ],
  [
    "Starting",
    "2021-01-01T00:00:00Z",
    "2021-01-01T02:00:00Z",
    0,
    { total_runs: 2, finished_runs: 0, progress: 0 },
  ],
  // a single run from the earliest date: progress cannot be calculated
  ["Running", null, "2021-01-01T02:00:00Z", 0, null],
  // a single run from the earliest date which has completed
  ["Completed", null, "2021-01-01T02:00:00Z", 1, { total_runs: 1, finished_runs: 1, progress: 1 }],
  // a continuous hourly backfill up to now, started 100 minutes ago: 2 runs, 1 completed
  ["Running", "now-100", null, 1, { total_runs: 2, finished_runs: 1, progress: 0.5 }],
  // started 119 minutes ago and completed: 2 runs (rounded up), progress 1
  ["Completed", "now-119", null, 0, { total_runs: 2, finished_runs: 2, progress: 1 }],
];

describe("backfills/test_get.py", () => {
  it.each(CASES)(
    cite("test_can_get_backfills_for_your_organizations", "%s-%s-%s-%s"),
    async (status, start, end, completedRuns, expectedProgress) => {
      const testTime = Math.floor(world.now() / 1000) * 1000;
      const ms = (text: string | null) =>
        text === null ? null : text.startsWith("now-") ? testTime - Number(text.slice(4)) * MINUTE : at(text);
      const startAt = ms(start);
      const endAt = ms(end);
      const batchExport = await createBatchExportOrm(world);
      const finishedAt = status === "Completed" ? testTime : null;
      const backfill = await createBackfill(
        world,
        world.team,
        batchExport,
        startAt === null ? null : iso(startAt),
        endAt === null ? null : iso(endAt),
        status,
        finishedAt === null ? null : iso(finishedAt),
      );
      for (let i = 0; i < completedRuns; i++) {
        await createRun(
          world,
          batchExport,
          "Completed",
          startAt === null ? null : iso(startAt),
          iso(endAt ?? testTime),
          { backfill },
        );
      }

      const response = await world
        .client()
        .get(exportsPath(world.team, `${batchExport}/backfills/${backfill}`));
      assertStatus(response, 200);
      const { created_at: createdAt, last_updated_at: lastUpdatedAt, ...backfillData } = response.body;
      expect(typeof createdAt).toBe("string");
      expect(typeof lastUpdatedAt).toBe("string");
      expect(backfillData).toEqual({
        id: backfill,
        batch_export: batchExport,
        team: world.team,
        start_at: startAt === null ? null : strftime(startAt),
        end_at: endAt === null ? null : strftime(endAt),
        status,
        finished_at: finishedAt === null ? null : strftime(finishedAt),
        progress: expectedProgress,
        adjusted_start_at: null,
        total_records_count: null,
      });
    },
  );

  it(cite("test_cannot_get_backfills_for_other_organizations"), async () => {
    const batchExport = await createBatchExportOrm(world);
    const backfill = await createBackfill(
      world,
      world.team,
      batchExport,
      "2023-01-01T00:00:00Z",
      "2023-01-02T00:00:00Z",
      "Running",
      null,
    );
    const anotherOrganization = await world.createOrganization("Another Org");
    const anotherUser = await world.createUser("another-test@user.com", anotherOrganization);

    const response = await world
      .client(anotherUser)
      .get(exportsPath(world.team, `${batchExport}/backfills/${backfill}`));
    assertStatus(response, 403);
  });

  it(cite("test_backfills_are_partitioned_by_team"), async () => {
    const anotherTeam = await world.createTeam(world.org);
    const batchExport = await createBatchExportOrm(world);
    const backfill = await createBackfill(
      world,
      world.team,
      batchExport,
      "2023-01-01T00:00:00Z",
      "2023-01-02T00:00:00Z",
      "Running",
      null,
    );

    let response = await world.client().get(exportsPath(anotherTeam, `${batchExport}/backfills/${backfill}`));
    assertStatus(response, 404);

    // And switch the teams around for good measure
    const anotherBatchExport = await createBatchExportOrm(world, anotherTeam);
    const anotherBackfill = await createBackfill(
      world,
      anotherTeam,
      anotherBatchExport,
      "2023-01-01T00:00:00Z",
      "2023-01-02T00:00:00Z",
      "Running",
      null,
    );
    response = await world
      .client()
      .get(exportsPath(world.team, `${anotherBatchExport}/backfills/${anotherBackfill}`));
    assertStatus(response, 404);
  });
});
