/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_list.py (revision a96c6dcf). The
 * test's AwsS3 body carries inline keys, which the newest serializer refuses for AwsS3: the body names
 * an `aws-s3` integration instead (common.ts). The `enable_backfilling_workflows` fixture is the seed's
 * `backfill-workflows-destination` flag (the patched call's arguments have no counterpart).
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, usePostHog } from "../harness.js";
import { createBatchExportOk, exportsPath, s3BatchExportData } from "./common.js";

const cite = citing("products/batch_exports/backend/tests/api/test_list.py");
const { world } = usePostHog();

async function listBatchExportsOk(team: number, actor = world.user) {
  const response = await world.client(actor).get(exportsPath(team));
  assertStatus(response, 200);
  return response.body as { results: Array<{ destination: { type: string } }> };
}

async function deleteBatchExportOk(team: number, id: string) {
  const response = await world.client().delete(exportsPath(team, id));
  assertStatus(response, 204);
}

describe("test_list.py", () => {
  it(cite("test_list_batch_exports"), async () => {
    const data = await s3BatchExportData(world);
    const firstExport = await createBatchExportOk(world, world.team, data);
    const secondExport = await createBatchExportOk(world, world.team, data);

    let response = await listBatchExportsOk(world.team);
    expect(response.results.length).toBe(2);

    // Deleted batch exports should not be returned.
    await deleteBatchExportOk(world.team, firstExport.id);
    response = await listBatchExportsOk(world.team);
    expect(response.results.length).toBe(1);

    await deleteBatchExportOk(world.team, secondExport.id);
    response = await listBatchExportsOk(world.team);
    expect(response.results.length).toBe(0);
  });

  it(cite("test_cannot_list_batch_exports_for_other_organizations"), async () => {
    const otherOrganization = await world.createOrganization("Other Test Org");
    const otherTeam = await world.createTeam(otherOrganization);
    const otherUser = await world.createUser("another-test@user.com", otherOrganization);

    const data = await s3BatchExportData(world);
    await createBatchExportOk(world, world.team, data);
    await createBatchExportOk(world, world.team, data);

    // Make sure we can list batch exports for our own team.
    let response = await listBatchExportsOk(world.team);
    expect(response.results.length).toBe(2);

    response = await listBatchExportsOk(otherTeam, otherUser);
    expect(response.results.length).toBe(0);
  });

  it(cite("test_list_is_partitioned_by_team"), async () => {
    const anotherTeam = await world.createTeam(world.org);
    const data = await s3BatchExportData(world);
    await createBatchExportOk(world, world.team, data);
    await createBatchExportOk(world, world.team, data);

    // Make sure we can list batch exports for that team.
    let response = await listBatchExportsOk(world.team);
    expect(response.results.length).toBe(2);

    // Make sure we can't see these batch exports for the other team.
    response = await listBatchExportsOk(anotherTeam);
    expect(response.results.length).toBe(0);
  });

  it(cite("test_list_filters_workflows_destination"), async () => {
    await world.edit((s) => {
      s.service.feature_flags["backfill-workflows-destination"] = true;
    });
    await createBatchExportOk(world, world.team, await s3BatchExportData(world));
    await createBatchExportOk(world, world.team, {
      name: "my-realtime-destination",
      destination: { type: "Workflows", config: { hog_function_id: "aaaa-bbbb-cccc" } },
      interval: "hour",
    });

    const response = await listBatchExportsOk(world.team);
    expect(response.results.length).toBe(1);
    expect(response.results[0]?.destination.type).toBe("AwsS3");
  });
});
