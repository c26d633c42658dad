/**
 * Ported from PostHog's products/feature_flags/backend/api/test/test_feature_flag_dependency_disabling.py:
 * disabling (or archiving) a flag other active flags depend on is refused, enabling a flag whose
 * dependencies are disabled is refused, and a new dependency on a disabled flag is refused.
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import { FLAGS, OTHER_TEAM, usePostHogFlags } from "./flags-harness.js";

const FILE = "products/feature_flags/backend/api/test/test_feature_flag_dependency_disabling.py";
const ph = usePostHogFlags();

const dependency = (id: number) => ({
  key: String(id),
  type: "flag",
  value: "true",
  operator: "flag_evaluates_to",
});

const createFlag = (key: string, dependencies: number[] = [], active = true) =>
  ph.createFlag({
    key,
    name: `Flag ${key.toUpperCase()}`,
    active,
    filters: { groups: [{ properties: dependencies.map(dependency), rollout_percentage: 100 }] },
  });

const patch = (id: number, body: unknown) => ph.api("PATCH", `${FLAGS}/${id}/`, body);

describe(FILE, () => {
  it(`${FILE}::test_cannot_disable_flag_with_active_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    const response = await patch(base.id, { active: false });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(
      "Cannot disable this feature flag because other flags depend on it",
    );
    expect(response.body.detail).toContain(`${dependent.key} (ID: ${dependent.id})`);
  });

  it(`${FILE}::test_cannot_archive_flag_with_active_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    const response = await patch(base.id, { archived: true, active: false });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(
      "Cannot archive this feature flag because other flags depend on it",
    );
    expect(response.body.detail).toContain(`${dependent.key} (ID: ${dependent.id})`);
  });

  it(`${FILE}::test_can_disable_flag_with_no_dependents`, async () => {
    const flag = await createFlag("standalone_flag");
    expect((await patch(flag.id, { active: false })).status).toBe(200);
    expect((await ph.row(flag.id)).active).toBe(false);
  });

  it(`${FILE}::test_can_disable_flag_with_inactive_dependents`, async () => {
    const base = await createFlag("base_flag");
    await createFlag("dependent_flag", [base.id], false);
    expect((await patch(base.id, { active: false })).status).toBe(200);
  });

  it(`${FILE}::test_can_disable_flag_with_deleted_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    await ph.save(dependent.id, { deleted: true });
    expect((await patch(base.id, { active: false })).status).toBe(200);
  });

  it(`${FILE}::test_cannot_disable_flag_with_multiple_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependents = await ph.createFlags(
      Array.from({ length: 8 }, (_, i) => ({
        key: `dependent_flag_${i}`,
        filters: { groups: [{ properties: [dependency(base.id)], rollout_percentage: 100 }] },
      })),
    );
    const response = await patch(base.id, { active: false });
    expect(response.status).toBe(400);
    for (const dependent of dependents.slice(0, 5)) {
      expect(response.body.detail).toContain(`${dependent.key} (ID: ${dependent.id})`);
    }
    expect(response.body.detail).toContain("and 3 more");
  });

  it(`${FILE}::test_cannot_disable_flag_in_dependency_chain`, async () => {
    const a = await createFlag("flag_a");
    const b = await createFlag("flag_b", [a.id]);
    const c = await createFlag("flag_c", [b.id]);
    const middle = await patch(b.id, { active: false });
    expect(middle.status).toBe(400);
    expect(middle.body.detail).toContain(`${c.key} (ID: ${c.id})`);
    const start = await patch(a.id, { active: false });
    expect(start.status).toBe(400);
    expect(start.body.detail).toContain(`${b.key} (ID: ${b.id})`);
    expect((await patch(c.id, { active: false })).status).toBe(200);
  });

  it(`${FILE}::test_flag_with_mixed_properties_prevents_disabling`, async () => {
    const base = await createFlag("base_flag");
    const mixed = await ph.createFlag({
      key: "mixed_flag",
      name: "Mixed Flag",
      filters: {
        groups: [
          {
            properties: [
              dependency(base.id),
              { key: "email", type: "person", value: "test@example.com", operator: "exact" },
            ],
            rollout_percentage: 100,
          },
        ],
      },
    });
    const response = await patch(base.id, { active: false });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(`${mixed.key} (ID: ${mixed.id})`);
  });

  it(`${FILE}::test_dependency_check_only_within_same_team`, async () => {
    const base = await createFlag("base_flag");
    await ph.createFlag({
      team_id: OTHER_TEAM,
      key: "other_team_flag",
      filters: { groups: [{ properties: [dependency(base.id)], rollout_percentage: 100 }] },
    });
    expect((await patch(base.id, { active: false })).status).toBe(200);
  });

  it(`${FILE}::test_can_enable_flag_that_was_previously_disabled`, async () => {
    const base = await createFlag("base_flag", [], false);
    await createFlag("dependent_flag", [base.id]);
    expect((await patch(base.id, { active: true })).status).toBe(200);
    expect((await ph.row(base.id)).active).toBe(true);
  });

  it(`${FILE}::test_disabling_already_disabled_flag_no_error`, async () => {
    const base = await createFlag("base_flag", [], false);
    await createFlag("dependent_flag", [base.id]);
    expect((await patch(base.id, { active: false })).status).toBe(200);
  });

  it(`${FILE}::test_cannot_enable_dependent_flag_when_dependency_disabled`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id], false);
    expect((await patch(base.id, { active: false })).status).toBe(200);
    expect((await ph.row(base.id)).active).toBe(false);
    const response = await patch(dependent.id, { active: true });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(
      "Cannot enable this feature flag because it depends on disabled flags",
    );
    expect(response.body.detail).toContain(`${base.key} (ID: ${base.id})`);
    expect((await ph.row(dependent.id)).active).toBe(false);
  });

  it(`${FILE}::test_cannot_enable_flag_with_multiple_disabled_dependencies`, async () => {
    const a = await createFlag("flag_a", [], false);
    const b = await createFlag("flag_b", [], false);
    const c = await createFlag("flag_c");
    const dependent = await ph.createFlag({
      key: "dependent_flag",
      name: "Dependent Flag",
      active: false,
      filters: {
        groups: [
          { properties: [dependency(a.id), dependency(b.id), dependency(c.id)], rollout_percentage: 100 },
        ],
      },
    });
    const response = await patch(dependent.id, { active: true });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(`${a.key} (ID: ${a.id})`);
    expect(response.body.detail).toContain(`${b.key} (ID: ${b.id})`);
    expect(response.body.detail).not.toContain(`${c.key} (ID: ${c.id})`);
  });

  it(`${FILE}::test_cannot_create_dependency_on_disabled_flag`, async () => {
    const disabled = await createFlag("disabled_flag", [], false);
    const response = await ph.api("POST", `${FLAGS}/`, {
      name: "New Flag",
      key: "new_flag",
      filters: { groups: [{ properties: [dependency(disabled.id)], rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(`Cannot create dependency on disabled flag '${disabled.key}'`);
    expect(response.body.detail).toContain(`ID: ${disabled.id}`);
  });

  it(`${FILE}::test_cannot_update_flag_to_add_dependency_on_disabled_flag`, async () => {
    const active = await createFlag("active_flag");
    const disabled = await createFlag("disabled_flag", [], false);
    const response = await patch(active.id, {
      filters: { groups: [{ properties: [dependency(disabled.id)], rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(`Cannot create dependency on disabled flag '${disabled.key}'`);
    expect(response.body.detail).toContain(`ID: ${disabled.id}`);
  });
});
