/**
 * Port of PostHog's products/batch_exports/backend/tests/api/backfills/test_cancel.py (revision
 * 9e830ea9). The original slows the backfill's producer down so the backfill is still running, with
 * runs in flight, when it is cancelled. The emulator completes a backfill as it creates it, so the port
 * holds it the same way: after the backfill is requested through the API, its record and its runs are
 * put back in flight (`Running`) in the emulator's state, which is what the test's wait loops observe.
 * The event the test writes (for the service's data check) has no counterpart.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../../harness.js";
import { createBatchExportOk, exportsPath, s3BatchExportData } from "../common.js";

const cite = citing("products/batch_exports/backend/tests/api/backfills/test_cancel.py");
const { world } = usePostHog();

describe("backfills/test_cancel.py", () => {
  it(cite("test_cancelling_a_batch_export_backfill"), async () => {
    const batchExport = await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    const created = await world.client().post(exportsPath(world.team, `${batchExport.id}/backfills`), {
      start_at: "2023-10-23T00:00:00+00:00",
      end_at: "2023-10-24T00:00:00+00:00",
    });
    assertStatus(created, 201);
    await world.edit((s) => {
      for (const f of s.backfills) if (f.batch_export === batchExport.id) f.status = "Running";
      for (const r of s.runs) if (r.batch_export === batchExport.id) r.status = "Running";
    });

    const list = await world.client().get(exportsPath(world.team, `${batchExport.id}/backfills`));
    assertStatus(list, 200);
    let backfillData = list.body.results[0];
    expect(backfillData.status).toBe("Running");
    const backfillId = backfillData.id;

    const cancelled = await world
      .client()
      .post(exportsPath(world.team, `${batchExport.id}/backfills/${backfillId}/cancel`));
    assertStatus(cancelled, 200);
    expect(cancelled.body.cancelled).toBe(true);

    const got = await world
      .client()
      .get(exportsPath(world.team, `${batchExport.id}/backfills/${backfillId}`));
    assertStatus(got, 200);
    backfillData = got.body;
    expect(backfillData.status).toBe("Cancelled");

    const runs = (await world.state()).runs.filter((r) => r.backfill === backfillId);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(run.status).toBe("Cancelled");
  });
});
