/**
 * Port of PostHog's ee/api/test/test_dashboard.py (newest stored revision, with
 * `test_sharing_edits_limited_to_collaborators`). `APILicensedTest` is an organization with the paid
 * features (TAGGING, ADVANCED_PERMISSIONS, ACCESS_CONTROL); deleting the license is turning them off;
 * `Dashboard.objects.create` is a record of the emulator's state; a private project is a project access
 * control rule (see `makeProjectPrivate`). Not ported:
 * `test_shared_dashboard_in_private_project` (the `/shared_dashboard/` page is not served).
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, permissionDeniedResponse, projectPath, usePostHog } from "../harness.js";

const cite = citing("ee/api/test/test_dashboard.py");
const { world } = usePostHog({
  world: { features: { tagging: true, advanced_permissions: true, access_control: true } },
});

/**
 * `team.access_control = True`: the stored test makes the project private the way the service did before
 * its newest access control; the newest service keeps a private project as a project rule giving every
 * member `none` (the migration from the old model wrote such rules), which is what the port stores.
 */
async function makeProjectPrivate() {
  await world.accessControl({ resource: "project", resource_id: world.team, access_level: "none" });
}

let next = 800;
async function dashboardOrm(fields: Record<string, unknown>): Promise<number> {
  const id = next++;
  await world.insert("dashboards", { id, team_id: world.team, ...fields });
  return id;
}

const dashboardPath = (id: number, rest = "") => projectPath(world.team, `dashboards/${id}${rest}`);

describe("test_dashboard.py (ee)", () => {
  it(cite("test_retrieve_dashboard_forbidden_for_project_outsider"), async () => {
    await makeProjectPrivate();
    await world.setLevel(world.user, "member");
    const id = await dashboardOrm({ name: "private dashboard", created_by: world.user.id });
    const response = await world.client().get(dashboardPath(id));
    assertStatus(response, 403);
  });

  it(cite("test_retrieve_dashboard_forbidden_for_org_admin"), async () => {
    // The test's name says forbidden; its assertion (kept) is that an organization admin gets in.
    await makeProjectPrivate();
    await world.setLevel(world.user, "admin");
    const id = await dashboardOrm({ name: "private dashboard", created_by: world.user.id });
    const response = await world.client().get(dashboardPath(id));
    assertStatus(response, 200);
  });

  it(cite("test_retrieve_dashboard_allowed_for_project_member"), async () => {
    await makeProjectPrivate();
    await world.setLevel(world.user, "member");
    // `ExplicitTeamMembership.objects.create(team=..., parent_membership=...)`: newest, a project rule
    // naming the member with `member` access.
    await world.accessControl({
      resource: "project",
      resource_id: world.team,
      access_level: "member",
      organization_member: world.user.id,
    });
    const id = await dashboardOrm({ name: "private dashboard", created_by: world.user.id });
    const response = await world.client().get(dashboardPath(id));
    assertStatus(response, 200);
  });

  for (const level of ["member", "admin"] as const) {
    const who = level === "member" ? "project_member" : "project_admin";
    it(cite(`test_can_set_dashboard_to_restrict_editing_as_creator_who_is_${who}`), async () => {
      await world.setLevel(world.user, level);
      const id = await dashboardOrm({ name: "Edit-restricted dashboard", created_by: world.user.id });
      const response = await world.client().patch(dashboardPath(id), { restriction_level: 37 });
      assertStatus(response, 200);
      expect(response.body).toMatchObject({ restriction_level: 37, effective_restriction_level: 37 });
    });
  }

  it(cite("test_cannot_set_dashboard_to_restrict_editing_as_other_user_who_is_project_member"), async () => {
    const creator = await world.createUser("y@x.com");
    await world.setLevel(world.user, "member");
    const id = await dashboardOrm({ name: "Edit-restricted dashboard", created_by: creator.id });
    const response = await world
      .client()
      .patch(dashboardPath(id), { restriction_level: 37, effective_restriction_level: 37 });
    assertStatus(response, 403);
    expect(response.body).toEqual(
      permissionDeniedResponse(
        "Only the dashboard owner and project admins have the restriction rights required to change the dashboard's restriction level.",
      ),
    );
  });

  it(cite("test_can_set_dashboard_to_restrict_editing_as_other_user_who_is_project_admin"), async () => {
    const creator = await world.createUser("y@x.com");
    await world.setLevel(world.user, "admin");
    const id = await dashboardOrm({ name: "Edit-restricted dashboard", created_by: creator.id });
    const response = await world.client().patch(dashboardPath(id), { restriction_level: 37 });
    assertStatus(response, 200);
    expect(response.body).toMatchObject({ restriction_level: 37, effective_restriction_level: 37 });
  });

  it(cite("test_can_edit_restricted_dashboard_as_creator_who_is_project_member"), async () => {
    await world.setLevel(world.user, "member");
    const id = await dashboardOrm({
      name: "Edit-restricted dashboard",
      created_by: world.user.id,
      restriction_level: 37,
    });
    const response = await world.client().patch(dashboardPath(id), { name: "Gentle Antelope" });
    assertStatus(response, 200);
    expect(response.body).toMatchObject({
      name: "Gentle Antelope",
      effective_restriction_level: 37,
      effective_privilege_level: 37,
    });
  });

  it(cite("test_cannot_edit_restricted_dashboard_as_other_user_who_is_project_member"), async () => {
    const creator = await world.createUser("y@x.com");
    await world.setLevel(world.user, "member");
    const id = await dashboardOrm({
      name: "Edit-restricted dashboard",
      created_by: creator.id,
      restriction_level: 37,
    });
    const response = await world.client().patch(dashboardPath(id), { name: "Gentle Antelope" });
    assertStatus(response, 403);
    expect(response.body).toEqual(
      permissionDeniedResponse("You don't have edit permissions for this dashboard."),
    );
  });

  it(cite("test_can_edit_restricted_dashboard_as_other_user_who_is_project_admin"), async () => {
    const creator = await world.createUser("y@x.com");
    await world.setLevel(world.user, "admin");
    const id = await dashboardOrm({
      name: "Edit-restricted dashboard",
      created_by: creator.id,
      restriction_level: 37,
    });
    const response = await world.client().patch(dashboardPath(id), { name: "Gentle Antelope" });
    assertStatus(response, 200);
    expect(response.body).toMatchObject({ name: "Gentle Antelope" });
  });

  it(cite("test_dashboard_restrictions_have_no_effect_without_license"), async () => {
    const id = await dashboardOrm({
      name: "Edit-restricted dashboard",
      created_by: world.user.id,
      restriction_level: 37,
    });
    // `License.objects.all().delete(); organization.update_available_product_features()`
    await world.setFeatures({});
    const response = await world.client().get(dashboardPath(id));
    assertStatus(response, 200);
    expect(response.body).toMatchObject({ restriction_level: 37, effective_restriction_level: 21 });
  });

  it(cite("test_dashboard_no_duplicate_tags"), async () => {
    const id = await dashboardOrm({ name: "Edit-restricted dashboard", created_by: world.user.id });
    const response = await world.client().patch(dashboardPath(id), { tags: ["a", "b", "a"] });
    expect([...response.body.tags].sort()).toEqual(["a", "b"]);
  });

  it(cite("test_sharing_edits_limited_to_collaborators"), async () => {
    const creator = await world.createUser("y@x.com");
    await world.setLevel(world.user, "member");
    const id = await dashboardOrm({
      name: "example dashboard",
      created_by: creator.id,
      restriction_level: 37,
    });
    const response = await world.client().patch(dashboardPath(id, "/sharing"), { enabled: true });
    assertStatus(response, 403);
    expect(response.body).toEqual(
      permissionDeniedResponse("You don't have edit permissions for this dashboard."),
    );
  });

  it(cite("test_can_edit_dashboard_description_when_collaboration_not_available"), async () => {
    // `available_product_features = []` and a private project (team.access_control): without the
    // entitlement the project rule has no effect.
    await world.setFeatures({});
    await makeProjectPrivate();
    const userWithoutCollaboration = await world.createUser("no-collaboration-feature@posthog.com");
    const id = await dashboardOrm({ name: "example dashboard" });
    const response = await world
      .client(userWithoutCollaboration)
      .patch(dashboardPath(id), { description: "i should be allowed to edit this", name: "as well as this" });
    assertStatus(response, 200);
    const dashboard = (await world.state()).dashboards.find((d) => d.id === id);
    expect(dashboard?.description).toBe("i should be allowed to edit this");
    expect(dashboard?.name).toBe("as well as this");
  });
});
