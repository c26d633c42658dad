/** Ported from PostHog's products/dashboards/backend/api/test/test_dashboard_tiles.py. */
import { cite, notModelled } from "../insights/harness.js";

const name = cite("products/dashboards/backend/api/test/test_dashboard_tiles.py");

notModelled(
  name("TestDashboardTileHardDelete::test_hard_delete_removes_orphaned_insight_caching_state"),
  "a database-level hard delete and caching-state rows; the API has no hard delete of tiles",
);
