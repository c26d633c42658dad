/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_workflows.py (revision
 * 0231c795): Workflows exports, behind the `backfill-workflows-destination` flag (the seed's feature
 * flag; the patched call's arguments have no counterpart). The daily schedule assertion is Temporal's.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_workflows.py");
const { world } = usePostHog();

const destination = { type: "Workflows", config: { hog_function_id: "aaaa-bbbb-cccc" }, integration: null };
const create = () =>
  world.client().post(projectPath(world.team, "batch_exports"), {
    name: "my-workflows-destination",
    destination,
    interval: "day",
  });

describe("test_create_workflows.py", () => {
  it(cite("test_creating_workflows_batch_export"), async () => {
    await world.edit((s) => {
      s.service.feature_flags["backfill-workflows-destination"] = true;
    });
    const response = await create();
    assertStatus(response, 201);
    expect(response.body.destination).toEqual(destination);
  });

  it(cite("test_creating_workflows_batch_export_fails_if_feature_flag_is_not_enabled"), async () => {
    const response = await create();
    assertStatus(response, 403);
    expect(response.body.detail).toContain("Backfilling Workflows is not enabled for this team.");
  });
});
