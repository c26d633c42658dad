/**
 * Port of PostHog's products/batch_exports/backend/tests/api/backfills/test_list.py (newest stored
 * revision, with `test_list_batch_export_backfills_pages_over_tied_timestamps`). Fixtures write straight
 * to the emulator's state (../common.ts). The tied-timestamps test monkeypatches the cursor page size
 * to 2 over 5 backfills; the emulator's page size is the service's 50, so the port makes 55 backfills
 * to cross a page boundary the same way.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, assertStatus, citing, usePostHog } from "../../harness.js";
import { createBackfill, createBatchExportOrm, exportsPath } from "../common.js";

const cite = citing("products/batch_exports/backend/tests/api/backfills/test_list.py");
const { h, world } = usePostHog();

async function listOk(team: number, batchExport: string, actor = world.user, query = {}) {
  const response = await world.client(actor).get(exportsPath(team, `${batchExport}/backfills`), query);
  assertStatus(response, 200);
  return response.body as { next: string | null; results: Array<{ id: string }> };
}

async function twoBackfills(batchExport: string) {
  await createBackfill(
    world,
    world.team,
    batchExport,
    "2021-01-01T00:00:00Z",
    "2021-01-01T01:00:00Z",
    "Completed",
    "2025-01-01T01:00:00Z",
  );
  await createBackfill(
    world,
    world.team,
    batchExport,
    "2021-01-01T01:00:00Z",
    "2021-01-01T03:00:00Z",
    "Completed",
    "2025-01-01T01:00:00Z",
  );
}

describe("backfills/test_list.py", () => {
  it(cite("test_list_batch_export_backfills"), async () => {
    const batchExport = await createBatchExportOrm(world);
    await twoBackfills(batchExport);
    const response = await listOk(world.team, batchExport);
    expect(response.results.length).toBe(2);
  });

  it(cite("test_cannot_list_batch_export_backfills_for_other_organizations"), async () => {
    const batchExport = await createBatchExportOrm(world);
    await twoBackfills(batchExport);
    const otherOrganization = await world.createOrganization("Other Test Org");
    const otherTeam = await world.createTeam(otherOrganization);
    const otherUser = await world.createUser("another-test@user.com", otherOrganization);

    // Make sure we can list batch export backfills for our own team.
    let response = await listOk(world.team, batchExport);
    expect(response.results.length).toBe(2);

    response = await listOk(otherTeam, batchExport, otherUser);
    expect(response.results.length).toBe(0);
  });

  it(cite("test_list_is_partitioned_by_team"), async () => {
    const anotherTeam = await world.createTeam(world.org);
    const batchExport = await createBatchExportOrm(world);
    await twoBackfills(batchExport);

    // Make sure we can list batch export backfills for that team.
    let response = await listOk(world.team, batchExport);
    expect(response.results.length).toBe(2);

    // Make sure we can't see these batch export backfills for the other team.
    response = await listOk(anotherTeam, batchExport);
    expect(response.results.length).toBe(0);
  });

  it.each([null, "created_at", "-created_at", "start_at", "-start_at"])(
    cite("test_list_batch_export_backfills_pages_over_tied_timestamps", "%s"),
    async (ordering) => {
      const batchExport = await createBatchExportOrm(world);
      const ids: string[] = [];
      for (let i = 0; i < 55; i++) {
        ids.push(`0190f1d2-0000-7000-8000-${(0xf0000 + ((i * 7919) % 55)).toString(16).padStart(12, "0")}`);
      }
      await world.insert(
        "backfills",
        ...ids.map((id) => ({
          id,
          team_id: world.team,
          batch_export: batchExport,
          start_at: "2021-01-01T00:00:00Z",
          end_at: "2021-01-01T01:00:00Z",
          status: "Completed",
          finished_at: "2025-01-01T01:00:00Z",
          created_at: "2025-01-01T00:00:00Z",
        })),
      );

      const firstPage = await listOk(world.team, batchExport, world.user, ordering ? { ordering } : {});
      // collect_all_pages: follow `next` until it is null (bounded by the number of backfills).
      const results = [...firstPage.results];
      let next = firstPage.next;
      for (let guard = 0; next !== null && guard < ids.length; guard++) {
        const url = new URL(next);
        const page: ApiResponse = await h.api("GET", `${url.pathname}${url.search}`);
        assertStatus(page, 200);
        results.push(...page.body.results);
        next = page.body.next;
      }

      // Every timestamp is tied, so the backfill id alone decides the order.
      const descending = ordering === null || ordering.startsWith("-");
      const expected = [...ids].sort();
      if (descending) expected.reverse();
      expect(results.map((b) => b.id)).toEqual(expected);
    },
  );
});
