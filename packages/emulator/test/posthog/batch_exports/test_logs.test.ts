/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_logs.py (revision 62c6850a). The
 * export, its run and the scoped personal API key are written straight to the emulator's state.
 */
import { describe, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../harness.js";
import { createBatchExportOrm, createRun, exportsPath } from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_logs.py");
const { world } = usePostHog();

describe("test_logs.py", () => {
  it.each([
    ["batch_export", ["batch_export:read"], 200],
    ["batch_export", ["feature_flag:read"], 403],
    ["batch_export_run", ["feature_flag:read"], 403],
  ] as const)(
    cite("test_log_entries_with_scoped_personal_api_key", "%s-%s-%s"),
    async (route, scopes, expectedStatus) => {
      const batchExport = await createBatchExportOrm(world);
      const now = world.now();
      const run = await createRun(
        world,
        batchExport,
        "Completed",
        new Date(now - 3_600_000).toISOString(),
        new Date(now).toISOString(),
      );
      const key = await world.createKey(world.user, [...scopes]);
      let path = exportsPath(world.team, batchExport);
      if (route === "batch_export_run") path += `/runs/${run}`;

      const response = await world.client(key).get(`${path}/logs`);
      assertStatus(response, expectedStatus);
    },
  );
});
