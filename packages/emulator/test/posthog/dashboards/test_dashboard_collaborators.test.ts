/**
 * Port of PostHog's ee/api/test/test_dashboard_collaborators.py (revision 0a0da7d1). `APILicensedTest`
 * is an organization with the paid features (TAGGING, ADVANCED_PERMISSIONS, ACCESS_CONTROL); the test
 * dashboard and `DashboardPrivilege` rows are records of the emulator's state; `User.objects.bootstrap`
 * is a user of a new organization.
 */
import { describe, expect, it } from "vitest";
import {
  assertStatus,
  citing,
  permissionDeniedResponse,
  projectPath,
  usePostHog,
  validationErrorResponse,
} from "../harness.js";

const cite = citing("ee/api/test/test_dashboard_collaborators.py");
const { world } = usePostHog({
  world: { features: { tagging: true, advanced_permissions: true, access_control: true } },
});

const DASHBOARD = 9001;
const collaborators = (rest = "") => projectPath(world.team, `dashboards/${DASHBOARD}/collaborators/${rest}`);

/** setUp's dashboard, then the test's edits of it and of the user's membership. */
async function testDashboard(restrictionLevel: 21 | 37, createdByUser = true) {
  await world.setLevel(world.user, "member");
  await world.insert("dashboards", {
    id: DASHBOARD,
    team_id: world.team,
    name: "Test Insights 9001",
    created_by: createdByUser ? world.user.id : null,
    restriction_level: restrictionLevel,
  });
}

async function privilege(user: number, level: 21 | 37) {
  await world.insert("collaborators", { dashboard_id: DASHBOARD, user, level });
}

describe("test_dashboard_collaborators.py", () => {
  it(cite("test_list_collaborators_as_person_without_edit_access"), async () => {
    await testDashboard(37, false);
    const otherUserA = await world.createUser("a@x.com");
    const otherUserB = await world.createUser("b@x.com");
    await privilege(otherUserA.id, 21);
    await privilege(otherUserB.id, 37);

    const response = await world.client().get(collaborators());
    assertStatus(response, 200);
    const responseData = [...response.body].sort((x, y) => (x.user.email < y.user.email ? -1 : 1));
    expect(responseData.length).toBe(2);
    expect(responseData[0].user.email).toBe(otherUserA.email);
    expect(responseData[0].level).toBe(21);
    expect(responseData[1].user.email).toBe(otherUserB.email);
    expect(responseData[1].level).toBe(37);
  });

  it(cite("test_cannot_add_collaborator_to_unrestricted_dashboard_as_creator"), async () => {
    await testDashboard(21);
    const otherUser = await world.createUser("a@x.com");
    const response = await world.client().post(collaborators(), { user_uuid: otherUser.uuid, level: 37 });
    assertStatus(response, 400);
    expect(response.body).toEqual(
      validationErrorResponse("Cannot add collaborators to a dashboard on the lowest restriction level."),
    );
  });

  it(cite("test_can_add_collaborator_to_edit_restricted_dashboard_as_creator"), async () => {
    await testDashboard(37);
    const otherUser = await world.createUser("a@x.com");
    const response = await world.client().post(collaborators(), { user_uuid: otherUser.uuid, level: 37 });
    assertStatus(response, 201);
    expect(response.body.dashboard_id).toBe(DASHBOARD);
    expect(response.body.user.email).toBe(otherUser.email);
    expect(response.body.level).toBe(37);
  });

  it(cite("test_cannot_add_yourself_to_restricted_dashboard_as_creator"), async () => {
    await testDashboard(37);
    const response = await world.client().post(collaborators(), { user_uuid: world.user.uuid, level: 37 });
    assertStatus(response, 400);
    expect(response.body).toEqual(
      validationErrorResponse(
        "Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).",
      ),
    );
  });

  it(cite("test_cannot_add_collaborator_to_edit_restricted_dashboard_as_other_user"), async () => {
    await testDashboard(37, false);
    const otherUser = await world.createUser("a@x.com");
    const response = await world.client().post(collaborators(), { user_uuid: otherUser.uuid, level: 37 });
    assertStatus(response, 403);
    expect(response.body).toEqual(
      permissionDeniedResponse("You don't have edit permissions for this dashboard."),
    );
  });

  it(
    cite("test_cannot_add_collaborator_from_other_org_to_edit_restricted_dashboard_as_creator"),
    async () => {
      await testDashboard(37);
      const otherUser = await world.createUser("a@x.com", await world.createOrganization("Beta"));
      const response = await world.client().post(collaborators(), { user_uuid: otherUser.uuid, level: 37 });
      assertStatus(response, 400);
      expect(response.body).toEqual(
        validationErrorResponse("Cannot add collaborators that have no access to the project."),
      );
    },
  );

  it(cite("test_cannot_add_collaborator_to_other_org_to_edit_restricted_dashboard_as_creator"), async () => {
    await testDashboard(37);
    await world.setLevel(world.user, null);
    const otherUser = await world.createUser("a@x.com", await world.createOrganization("Beta"));
    const response = await world.client().post(collaborators(), { user_uuid: otherUser.uuid, level: 37 });
    assertStatus(response, 403);
    expect(response.body).toEqual(permissionDeniedResponse("You don't have access to the project."));
  });

  it(cite("test_cannot_update_existing_collaborator"), async () => {
    await testDashboard(21);
    const otherUser = await world.createUser("a@x.com");
    await privilege(otherUser.id, 37);
    const response = await world.client().patch(collaborators(otherUser.uuid), { level: 21 });
    assertStatus(response, 405);
  });

  it(cite("test_cannot_remove_collaborator_from_unrestricted_dashboard_as_creator"), async () => {
    await testDashboard(21);
    const otherUser = await world.createUser("a@x.com");
    await privilege(otherUser.id, 37);
    const response = await world.client().delete(collaborators(otherUser.uuid));
    assertStatus(response, 400);
    expect(response.body).toEqual(
      validationErrorResponse(
        "Cannot remove collaborators from a dashboard on the lowest restriction level.",
      ),
    );
  });

  it(cite("test_can_remove_collaborator_from_restricted_dashboard_as_creator"), async () => {
    await testDashboard(37);
    const otherUser = await world.createUser("a@x.com");
    await privilege(otherUser.id, 37);
    const response = await world.client().delete(collaborators(otherUser.uuid));
    assertStatus(response, 204);
  });

  it(cite("test_cannot_remove_collaborator_from_restricted_dashboard_as_other_user"), async () => {
    await testDashboard(37, false);
    const otherUser = await world.createUser("a@x.com");
    await privilege(otherUser.id, 37);
    const response = await world.client().delete(collaborators(otherUser.uuid));
    assertStatus(response, 403);
    expect(response.body).toEqual(
      permissionDeniedResponse("You don't have edit permissions for this dashboard."),
    );
  });
});
