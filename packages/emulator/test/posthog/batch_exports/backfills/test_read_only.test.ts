/**
 * Port of PostHog's products/batch_exports/backend/tests/api/backfills/test_read_only.py (revision
 * d96ff7b3). Fixtures write straight to the emulator's state (../common.ts).
 */
import { describe, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../../harness.js";
import { createBackfill, createBatchExportOrm, exportsPath } from "../common.js";

const cite = citing("products/batch_exports/backend/tests/api/backfills/test_read_only.py");
const { world } = usePostHog();

async function completedBackfill() {
  const batchExport = await createBatchExportOrm(world);
  const backfill = await createBackfill(
    world,
    world.team,
    batchExport,
    "2021-01-01T00:00:00Z",
    "2021-01-01T01:00:00Z",
    "Completed",
    "2025-01-01T01:00:00Z",
  );
  return exportsPath(world.team, `${batchExport}/backfills/${backfill}`);
}

describe("backfills/test_read_only.py", () => {
  it(cite("test_cannot_delete_batch_export_backfill"), async () => {
    const response = await world.client().delete(await completedBackfill());
    assertStatus(response, 405);
  });

  it(cite("test_cannot_update_batch_export_backfill"), async () => {
    const response = await world.client().patch(await completedBackfill(), { status: "RUNNING" });
    assertStatus(response, 405);
  });
});
