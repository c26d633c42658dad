/**
 * Ported from PostHog's ee/api/test/test_insight.py (`TestInsightEnterpriseAPI`): tags on insights and
 * the restriction an insight inherits from its dashboards (who may edit an insight that is on an
 * edit-restricted dashboard, and its `effective_restriction_level` / `effective_privilege_level`).
 * PostHog revision: 9d67819c. The newest stored revision (072669cd) drops the two DashboardPrivilege
 * cases and cuts the `effective_*` assertions to one-argument `assertEqual` calls, which raise; the
 * port follows the last revision whose cases run.
 *
 * Set-up: `APILicensedTest` licenses the organization (tagging and advanced permissions on) and logs
 * in `self.user`, a plain member: alice here, made a member before each case. `DashboardPrivilege`
 * rows are the emulator's dashboard collaborators (level 37, "can edit"). `test_listing_insights_does_
 * not_nplus1` is nested inside another test in this revision (never collected), so it is no case.
 * The two cases that compare the insight's activity log (`…/insights/:id/activity`) follow the newest
 * service, whose entries carry their `id` (see ACTIVITY_ID): this revision compares them whole, so
 * the port pops the id first as the newest test_insight.py does; the rows name `self.user` by the
 * fixture's name and email (`asPostHogUser`). Three cases create an insight on a
 * restricted dashboard the member may not edit, which the newest service refuses: they assert that
 * refusal and count as following a newer source.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Json } from "../../support/harness.js";
import { BOB_KEY, cite, newerSource, P, usePostHogHarness } from "./harness.js";

const name = cite("ee/api/test/test_insight.py");
const { h, clock, api } = usePostHogHarness();
/**
 * Why the two activity-log cases follow a newer source: the newest service's entries carry an `id`,
 * which this revision's whole-entry comparison does not expect.
 */
const ACTIVITY_ID =
  "posthog/models/activity_logging/serializers.py `ActivityLogSerializer` (every entry carries its `id`; products/product_analytics/backend/api/test/test_insight.py `assert_insight_activity` pops it before comparing)";

/** `assert_insight_activity`, with each entry's `id` popped as the newest service requires. */
async function assertInsightActivity(insightId: number, expected: Json[]): Promise<void> {
  const activity = (await api.getInsightActivity(insightId)).results as Json[];
  for (const item of activity) delete item.id;
  expect(activity).toEqual(expected);
}
const EVERYONE_IN_PROJECT_CAN_EDIT = 21;
const ONLY_COLLABORATORS_CAN_EDIT = 37;
const CAN_EDIT = 37;
const PAGEVIEW = { events: [{ id: "$pageview" }] };
const ALICE = 1;
const BOB = 2;

/** `User.objects.create_and_join(self.organization, ...)`: carol (user 3) with a key, at `level`. */
async function otherUser(level: "member" | "admin"): Promise<string> {
  const key = `phx_ee_insight_${level}`;
  await api.setLevel(3, level);
  await api.store((s) => {
    s.api_keys.push({ key, user: 3, scopes: ["*"] });
  });
  return key;
}

/** `DashboardPrivilege.objects.create(dashboard=..., user=..., level=ONLY_COLLABORATORS_CAN_EDIT)`. */
async function privilege(dashboardId: number, user: number): Promise<void> {
  await api.store((s) => {
    s.collaborators.push({ dashboard_id: dashboardId, user, level: 37 });
  });
}

/**
 * Why three cases follow a newer source: this revision lets a member create an insight straight onto
 * an edit-restricted dashboard they may not edit; the newest service refuses it as it refuses the same
 * change on update.
 */
const CREATE_CHECK =
  "products/product_analytics/backend/api/insight.py `InsightSerializer.create` (adding a tile on create is an edit of the dashboard: 403 without edit rights on it)";

/** The newest service's answer to creating an insight on a restricted dashboard the caller may not edit. */
async function refusedOnCreate(data: Json, dashboardId: number): Promise<void> {
  const response = await api.call("POST", `${P}/insights`, data);
  expect(response.status).toBe(403);
  expect(response.body.detail).toBe(`You don't have permission to add insights to dashboard: ${dashboardId}`);
}

const restrictedDashboard = (fields: Json = {}) =>
  api.addDashboard({ restriction_level: ONLY_COLLABORATORS_CAN_EDIT, created_by: null, ...fields });

describe("TestInsightEnterpriseAPI", () => {
  beforeEach(async () => {
    await api.setLevel(ALICE, "member");
  });

  it(newerSource(name("test_can_add_and_remove_tags"), ACTIVITY_ID), async () => {
    await api.asPostHogUser();
    clock.set("2012-01-14T03:21:34.000Z");
    const [insightId, created] = await api.createInsight({
      name: "a created dashboard",
      filters: { ...PAGEVIEW, properties: [{ key: "$browser", value: "Mac OS X" }], date_from: "-90d" },
    });
    expect(created.tags).toEqual([]);
    clock.set("2012-01-14T03:21:35.000Z");
    const added = await api.call("PATCH", `${P}/insights/${insightId}`, { tags: ["2", "1", "3"] });
    expect([...added.body.tags].sort()).toEqual(["1", "2", "3"]);
    clock.set("2012-01-14T03:21:36.000Z");
    const removed = await api.call("PATCH", `${P}/insights/${insightId}`, { tags: ["3"] });
    expect(removed.body.tags).toEqual(["3"]);

    await assertInsightActivity(insightId, [
      {
        activity: "updated",
        created_at: "2012-01-14T03:21:36Z",
        detail: {
          changes: [
            { action: "changed", after: ["3"], before: ["1", "2", "3"], field: "tags", type: "Insight" },
          ],
          name: "a created dashboard",
          short_id: created.short_id,
          trigger: null,
          type: null,
        },
        item_id: String(insightId),
        scope: "Insight",
        user: { email: "user1@posthog.com", first_name: "" },
      },
      {
        activity: "updated",
        created_at: "2012-01-14T03:21:35Z",
        detail: {
          changes: [
            { action: "changed", after: ["1", "2", "3"], before: [], field: "tags", type: "Insight" },
          ],
          name: "a created dashboard",
          short_id: created.short_id,
          trigger: null,
          type: null,
        },
        item_id: String(insightId),
        scope: "Insight",
        user: { email: "user1@posthog.com", first_name: "" },
      },
      {
        activity: "created",
        created_at: "2012-01-14T03:21:34Z",
        detail: {
          changes: null,
          name: "a created dashboard",
          short_id: created.short_id,
          trigger: null,
          type: null,
        },
        item_id: String(insightId),
        scope: "Insight",
        user: { email: "user1@posthog.com", first_name: "" },
      },
    ]);
  });

  it(newerSource(name("test_update_insight_can_include_tags_when_licensed"), ACTIVITY_ID), async () => {
    await api.asPostHogUser();
    clock.set("2012-01-14T03:21:34.000Z");
    const [insightId, insight] = await api.createInsight({ name: "insight name" });
    const shortId = insight.short_id;
    clock.tick(10 * 60_000);
    const response = await api.call("PATCH", `${P}/insights/${insightId}`, {
      name: "insight new name",
      tags: ["add", "these", "tags"],
    });
    expect(response.status).toBe(200);
    const data = response.body;
    expect(data.name).toBe("insight new name");
    expect([...data.tags].sort()).toEqual(["add", "tags", "these"]);
    const alice = (await h.state()).users.find((u: Json) => u.id === ALICE);
    expect(data.created_by.distinct_id).toBe(alice.uuid);
    expect(data.effective_restriction_level).toBe(EVERYONE_IN_PROJECT_CAN_EDIT);
    expect(data.effective_privilege_level).toBe(CAN_EDIT);
    const read = await api.call("GET", `${P}/insights/${insightId}`);
    expect(read.body.name).toBe("insight new name");

    await assertInsightActivity(insightId, [
      {
        user: { first_name: "", email: "user1@posthog.com" },
        activity: "updated",
        scope: "Insight",
        item_id: String(insightId),
        detail: {
          changes: [
            {
              type: "Insight",
              action: "changed",
              field: "tags",
              before: [],
              after: ["add", "tags", "these"],
            },
            {
              type: "Insight",
              action: "changed",
              field: "name",
              before: "insight name",
              after: "insight new name",
            },
          ],
          trigger: null,
          type: null,
          name: "insight new name",
          short_id: shortId,
        },
        created_at: "2012-01-14T03:31:34Z",
      },
      {
        user: { first_name: "", email: "user1@posthog.com" },
        activity: "created",
        scope: "Insight",
        item_id: String(insightId),
        detail: { changes: null, trigger: null, type: null, name: "insight name", short_id: shortId },
        created_at: "2012-01-14T03:21:34Z",
      },
    ]);
  });

  it(name("test_non_admin_user_with_privilege_can_add_an_insight_to_a_restricted_dashboard"), async () => {
    const dashboardId = await restrictedDashboard();
    const [insightId] = await api.createInsight({ name: "starts un-restricted dashboard" });
    await privilege(dashboardId, BOB);
    const response = await api.call(
      "PATCH",
      `${P}/insights/${insightId}`,
      { dashboards: [dashboardId] },
      BOB_KEY,
    );
    expect(response.status).toBe(200);
  });

  it(
    name("test_an_insight_on_both_restricted_dashboard_does_not_restrict_with_explicit_privilege"),
    async () => {
      const dashboardId = await restrictedDashboard();
      await privilege(dashboardId, ALICE);
      const [, data] = await api.createInsight({
        name: "on a restricted and unrestricted dashboard",
        dashboards: [dashboardId],
      });
      expect(data.effective_restriction_level).toBe(ONLY_COLLABORATORS_CAN_EDIT);
      expect(data.effective_privilege_level).toBe(CAN_EDIT);
    },
  );

  it(name("test_cannot_update_restricted_insight_as_other_user_who_is_project_member"), async () => {
    await otherUser("member"); // `creator`, who owns the dashboard
    const originalName = "Edit-restricted dashboard";
    const dashboardId = await restrictedDashboard({ name: originalName, created_by: 3 });
    const insightId = await api.addInsight({ name: "XYZ", created_by: ALICE });
    await api.addTile(dashboardId, { insight_id: insightId });
    const response = await api.call("PATCH", `${P}/insights/${insightId}`, { name: "ABC" });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      type: "authentication_error",
      code: "permission_denied",
      detail:
        "This insight is on a dashboard that can only be edited by its owner, team members invited to editing the dashboard, and project admins.",
      attr: null,
    });
    expect((await api.getDashboard(dashboardId)).name).toBe(originalName);
  });

  it(name("test_event_definition_no_duplicate_tags"), async () => {
    const dashboardId = await api.addDashboard({ name: "Edit-restricted dashboard" });
    const insightId = await api.addInsight({ name: "XYZ", created_by: ALICE });
    await api.addTile(dashboardId, { insight_id: insightId });
    const response = await api.call("PATCH", `${P}/insights/${insightId}`, { tags: ["a", "b", "a"] });
    expect([...response.body.tags].sort()).toEqual(["a", "b"]);
  });

  it(name("test_searching_insights_includes_tags_and_description"), async () => {
    const [one] = await api.createInsight({ name: "needle in a haystack", filters: PAGEVIEW });
    await api.createInsight({ name: "not matching", filters: PAGEVIEW });
    const [three] = await api.createInsight({
      name: "not matching name",
      filters: PAGEVIEW,
      tags: ["needle"],
    });
    const [four] = await api.createInsight({
      name: "not matching name",
      description: "another needle",
      filters: PAGEVIEW,
      tags: ["not matching"],
    });
    const matching = await api.call("GET", `${P}/insights/?search=needle`);
    expect(matching.status).toBe(200);
    const ids = matching.body.results.map((i: Json) => i.id).sort((a: number, b: number) => a - b);
    expect(ids).toEqual([one, three, four]);
  });

  it(
    newerSource(name("test_cannot_update_an_insight_if_on_restricted_dashboard"), CREATE_CHECK),
    async () => {
      const dashboardId = await restrictedDashboard();
      await refusedOnCreate(
        { name: "on a restricted and unrestricted dashboard", dashboards: [dashboardId] },
        dashboardId,
      );
    },
  );

  it(name("test_non_admin_user_cannot_add_an_insight_to_a_restricted_dashboard"), async () => {
    const [dashboardId] = await api.createDashboard({ restriction_level: ONLY_COLLABORATORS_CAN_EDIT });
    const [insightId] = await api.createInsight({ name: "starts un-restricted dashboard" });
    const withoutPermissions = await otherUser("member");
    let response = await api.call(
      "PATCH",
      `${P}/insights/${insightId}`,
      { dashboards: [dashboardId] },
      withoutPermissions,
    );
    expect(response.status).toBe(403);
    response = await api.call("PATCH", `${P}/insights/${insightId}`, { dashboards: [dashboardId] });
    expect(response.status).toBe(200);
  });

  it(name("test_admin_user_can_add_an_insight_to_a_restricted_dashboard"), async () => {
    const dashboardId = await restrictedDashboard();
    const [insightId] = await api.createInsight({ name: "starts un-restricted dashboard" });
    const admin = await otherUser("admin");
    const response = await api.call(
      "PATCH",
      `${P}/insights/${insightId}`,
      { dashboards: [dashboardId] },
      admin,
    );
    expect(response.status).toBe(200);
  });

  it(name("test_an_insight_on_no_dashboard_has_no_restrictions"), async () => {
    const [, data] = await api.createInsight({ name: "not on a dashboard" });
    expect(data.effective_restriction_level).toBe(EVERYONE_IN_PROJECT_CAN_EDIT);
    expect(data.effective_privilege_level).toBe(CAN_EDIT);
  });

  it(name("test_an_insight_on_unrestricted_dashboard_has_no_restrictions"), async () => {
    const dashboardId = await api.addDashboard({ created_by: null });
    const [, data] = await api.createInsight({
      name: "on an unrestricted dashboard",
      dashboards: [dashboardId],
    });
    expect(data.effective_restriction_level).toBe(EVERYONE_IN_PROJECT_CAN_EDIT);
    expect(data.effective_privilege_level).toBe(CAN_EDIT);
  });

  it(
    newerSource(
      name("test_an_insight_on_restricted_dashboard_has_restrictions_cannot_edit_without_explicit_privilege"),
      CREATE_CHECK,
    ),
    async () => {
      const dashboardId = await restrictedDashboard();
      await refusedOnCreate({ name: "on a restricted dashboard", dashboards: [dashboardId] }, dashboardId);
    },
  );

  it(
    newerSource(
      name("test_an_insight_on_both_restricted_and_unrestricted_dashboard_has_no_restrictions"),
      CREATE_CHECK,
    ),
    async () => {
      const restricted = await restrictedDashboard();
      const unrestricted = await api.addDashboard({
        restriction_level: EVERYONE_IN_PROJECT_CAN_EDIT,
        created_by: null,
      });
      await refusedOnCreate(
        { name: "on a restricted and unrestricted dashboard", dashboards: [restricted, unrestricted] },
        restricted,
      );
    },
  );

  it(name("test_an_insight_on_restricted_dashboard_does_not_restrict_admin"), async () => {
    const dashboardId = await restrictedDashboard();
    const admin = await otherUser("admin");
    api.key = admin;
    const [, data] = await api.createInsight({
      name: "on a restricted and unrestricted dashboard",
      dashboards: [dashboardId],
    });
    expect(data.effective_restriction_level).toBe(ONLY_COLLABORATORS_CAN_EDIT);
    expect(data.effective_privilege_level).toBe(CAN_EDIT);
  });
});
