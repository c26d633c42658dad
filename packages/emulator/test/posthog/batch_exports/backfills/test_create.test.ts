/**
 * Port of PostHog's products/batch_exports/backend/tests/api/backfills/test_create.py (revision
 * 24b3f012). The AwsS3 body names an `aws-s3` integration instead of the inline keys the newest
 * serializer refuses (../common.ts). `posthoganalytics.feature_enabled` patches are the seed's feature
 * flags, `override_settings(BATCH_EXPORT_MAX_CONCURRENT_BACKFILLS_PER_TEAM=2)` the seed's
 * `service.max_concurrent_backfills`, `BatchExportBackfill.objects.create` a record added to the
 * emulator's state, `freeze_time(now)` the emulator's clock read once.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../../harness.js";
import { createBackfill, createBatchExportOk, exportsPath, s3BatchExportData } from "../common.js";

const cite = citing("products/batch_exports/backend/tests/api/backfills/test_create.py");
const { world } = usePostHog();

async function createExport(
  team: number,
  model: string,
  interval = "hour",
  timezone = "UTC",
  offsetDay: number | null = null,
  offsetHour: number | null = null,
) {
  return createBatchExportOk(
    world,
    team,
    await s3BatchExportData(world, team, {
      interval,
      timezone,
      offset_day: offsetDay,
      offset_hour: offsetHour,
      model,
    }),
  );
}

const backfill = (
  team: number,
  id: string,
  startAt: string | null,
  endAt: string | null,
  actor = world.user,
) => world.client(actor).post(exportsPath(team, `${id}/backfills`), { start_at: startAt, end_at: endAt });

/** Python's `datetime.isoformat()` of an aware UTC datetime. */
const isoformat = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;

async function runningBackfills(team: number, batchExport: string, count: number, status = "Running") {
  for (let i = 0; i < count; i++) {
    await createBackfill(
      world,
      team,
      batchExport,
      "2021-01-01T00:00:00Z",
      "2021-01-02T00:00:00Z",
      status,
      null,
    );
  }
}

describe("backfills/test_create.py", () => {
  it.each(["events", "persons"])(cite("test_batch_export_backfill_success", "%s"), async (model) => {
    const batchExport = await createExport(world.team, model);
    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 201);
  });

  it.each([
    ["UTC", null],
    ["US/Pacific", 1],
    ["Asia/Kathmandu", 20],
  ] as const)(
    cite("test_batch_export_backfill_for_daily_schedule", "%s-%s"),
    async (timezone, offsetHour) => {
      const batchExport = await createExport(world.team, "events", "day", timezone, null, offsetHour);
      const response = await backfill(world.team, batchExport.id, "2026-01-01", "2026-01-02");
      assertStatus(response, 201);
      expect(response.body).toHaveProperty("backfill_id");
    },
  );

  it(cite("test_batch_export_backfill_for_daily_schedule_with_datetime_strings_fails"), async () => {
    const batchExport = await createExport(world.team, "events", "day");
    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 400);
    expect(response.body.detail).toBe(
      "Input '2021-01-01T00:00:00+00:00' is not a valid ISO formatted date. " +
        "Daily or weekly batch export backfills expect only the date component, but a time was included.",
    );
  });

  it.each([
    ["UTC", 0, null],
    ["US/Pacific", 0, 1],
    ["Asia/Kathmandu", 3, 20],
  ] as const)(
    cite("test_batch_export_backfill_for_weekly_schedule", "%s-%s-%s"),
    async (timezone, offsetDay, offsetHour) => {
      const [startDate, endDate] =
        offsetDay === 0 ? ["2026-01-04", "2026-01-11"] : ["2026-01-07", "2026-01-14"];
      const batchExport = await createExport(world.team, "events", "week", timezone, offsetDay, offsetHour);
      const response = await backfill(world.team, batchExport.id, startDate, endDate);
      assertStatus(response, 201);
      expect(response.body).toHaveProperty("backfill_id");
    },
  );

  it(cite("test_batch_export_backfill_for_weekly_schedule_with_datetime_strings_fails"), async () => {
    const batchExport = await createExport(world.team, "events", "week", "UTC", 0, 0);
    const response = await backfill(
      world.team,
      batchExport.id,
      "2026-01-04T00:00:00+00:00",
      "2026-01-11T00:00:00+00:00",
    );
    assertStatus(response, 400);
    expect(response.body.detail).toBe(
      "Input '2026-01-04T00:00:00+00:00' is not a valid ISO formatted date. " +
        "Daily or weekly batch export backfills expect only the date component, but a time was included.",
    );
  });

  it(cite("test_batch_export_backfill_for_weekly_schedule_fails_if_day_of_week_is_incorrect"), async () => {
    // use an offset day of 1, so we run weekly on Monday
    const batchExport = await createExport(world.team, "events", "week", "UTC", 1, null);
    const response = await backfill(world.team, batchExport.id, "2026-01-04", "2026-01-11");
    assertStatus(response, 400);
    expect(response.body.detail).toBe(
      "Input 2026-01-04 is not on the correct day of the week for this batch export. " +
        "2026-01-04 is a Sunday but this batch export is configured to run weekly on Monday.",
    );
  });

  it(cite("test_batch_export_backfill_with_non_isoformatted_dates"), async () => {
    const batchExport = await createExport(world.team, "events");
    let response = await backfill(world.team, batchExport.id, "not a date", "2021-01-01T01:00:00+00:00");
    assertStatus(response, 400);
    response = await backfill(world.team, batchExport.id, "2021-01-01T01:00:00+00:00", "not a date");
    assertStatus(response, 400);
  });

  it(cite("test_batch_export_backfill_with_end_at_in_the_future"), async () => {
    const testTime = world.now();
    const batchExport = await createExport(world.team, "events");
    const response = await backfill(
      world.team,
      batchExport.id,
      isoformat(testTime - 30 * 60_000),
      isoformat(testTime + 30 * 60_000),
    );
    assertStatus(response, 400);
    expect(response.body.detail).toContain("is in the future");
  });

  it(cite("test_batch_export_backfill_with_naive_bounds"), async () => {
    const batchExport = await createExport(world.team, "events");
    let response = await backfill(world.team, batchExport.id, "2021-01-01T01:00:00", "2021-01-01T01:00:00");
    assertStatus(response, 400);
    response = await backfill(world.team, batchExport.id, "2021-01-01T01:00:00", "2021-01-01T01:00:00");
    assertStatus(response, 400);
  });

  it(cite("test_batch_export_backfill_with_start_at_after_end_at"), async () => {
    const batchExport = await createExport(world.team, "events");
    let response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T01:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 400);
    response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T01:00:00+00:00",
      "2020-01-01T01:00:00+00:00",
    );
    assertStatus(response, 400);
  });

  it(cite("test_cannot_trigger_backfill_for_another_organization"), async () => {
    const otherOrganization = await world.createOrganization("Other Org");
    await world.createTeam(otherOrganization);
    const otherUser = await world.createUser("other-test@user.com", otherOrganization);
    const batchExport = await createExport(world.team, "events");

    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
      otherUser,
    );
    assertStatus(response, 403);
  });

  it(cite("test_backfill_is_partitioned_by_team_id"), async () => {
    const otherTeam = await world.createTeam(world.org);
    const batchExport = await createExport(world.team, "events");
    const response = await backfill(
      otherTeam,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 404);
  });

  it(cite("test_batch_export_backfill_created_in_timezone"), async () => {
    const batchExport = await createExport(world.team, "events");
    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00-05:00",
      "2021-10-01T00:00:00-04:00",
    );
    assertStatus(response, 201);
    expect(response.body).toHaveProperty("backfill_id");
  });

  it(cite("test_batch_export_earliest_backfill_rejected_without_feature_flag"), async () => {
    const batchExport = await createExport(world.team, "persons");
    const response = await backfill(world.team, batchExport.id, null, "2021-01-01T01:00:00+00:00");
    assertStatus(response, 400);
    expect(response.body.detail).toBe("Backfilling from the beginning of time is not enabled for this team.");
  });

  async function maxConcurrentBackfills(limit: number) {
    await world.edit((s) => {
      s.service.max_concurrent_backfills = limit;
    });
  }

  it(cite("test_backfill_rejected_when_team_at_concurrent_limit"), async () => {
    await maxConcurrentBackfills(2);
    const batchExport = await createExport(world.team, "events");
    await runningBackfills(world.team, batchExport.id, 2);

    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 429);
    expect(response.body.detail).toContain("This team already has 2 batch export backfills running");
  });

  it(cite("test_backfill_allowed_when_team_below_concurrent_limit"), async () => {
    await maxConcurrentBackfills(2);
    const batchExport = await createExport(world.team, "events");
    // create one running backfill
    await runningBackfills(world.team, batchExport.id, 1);
    // also create one completed backfill to ensure the limit is not exceeded
    await runningBackfills(world.team, batchExport.id, 1, "Completed");

    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 201);
  });

  it(cite("test_other_teams_backfills_do_not_count_toward_concurrent_limit"), async () => {
    await maxConcurrentBackfills(2);
    const otherTeam = await world.createTeam(world.org);
    const batchExport = await createExport(world.team, "events");
    const otherBatchExport = await createExport(otherTeam, "events");
    await runningBackfills(otherTeam, otherBatchExport.id, 5);

    const response = await backfill(
      world.team,
      batchExport.id,
      "2021-01-01T00:00:00+00:00",
      "2021-01-01T01:00:00+00:00",
    );
    assertStatus(response, 201);
  });

  it(cite("test_batch_export_earliest_backfill_allowed_with_feature_flag"), async () => {
    // `create_person(...)`: the emulator does not check for data before a backfill.
    const batchExport = await createExport(world.team, "persons");
    await world.edit((s) => {
      s.service.feature_flags["batch-export-earliest-backfill"] = true;
    });
    const response = await backfill(world.team, batchExport.id, null, "2021-01-01T01:00:00+00:00");
    assertStatus(response, 201);
    expect(response.body).toHaveProperty("backfill_id");
  });
});
