/**
 * Ported from PostHog's products/feature_flags/backend/api/test/test_feature_flag_dependency_deletion.py:
 * a soft delete (`PATCH deleted: true`) is refused while other active flags depend on the flag, and
 * `GET .../dependent_flags/` lists those flags.
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import { FLAGS, OTHER_TEAM, usePostHogFlags } from "./flags-harness.js";

const FILE = "products/feature_flags/backend/api/test/test_feature_flag_dependency_deletion.py";
const ph = usePostHogFlags();

const dependency = (id: number) => ({
  key: String(id),
  type: "flag",
  value: "true",
  operator: "flag_evaluates_to",
});

const createFlag = (key: string, dependencies: number[] = []) =>
  ph.createFlag({
    key,
    name: `Flag ${key.toUpperCase()}`,
    filters: { groups: [{ properties: dependencies.map(dependency), rollout_percentage: 100 }] },
  });

const softDelete = (id: number) => ph.api("PATCH", `${FLAGS}/${id}/`, { deleted: true });

describe(FILE, () => {
  it(`${FILE}::test_cannot_delete_flag_with_active_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    const response = await softDelete(base.id);
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(
      "Cannot delete this feature flag because other flags depend on it",
    );
    expect(response.body.detail).toContain(`${dependent.key} (ID: ${dependent.id})`);
  });

  it(`${FILE}::test_can_delete_flag_with_no_dependents`, async () => {
    const flag = await createFlag("standalone_flag");
    expect((await softDelete(flag.id)).status).toBe(200);
    expect((await ph.row(flag.id)).deleted).toBe(true);
  });

  it(`${FILE}::test_can_delete_flag_with_inactive_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    await ph.save(dependent.id, { active: false });
    expect((await softDelete(base.id)).status).toBe(200);
  });

  it(`${FILE}::test_can_delete_flag_with_deleted_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    await ph.save(dependent.id, { deleted: true });
    expect((await softDelete(base.id)).status).toBe(200);
  });

  it(`${FILE}::test_cannot_delete_flag_with_multiple_dependents`, async () => {
    const base = await createFlag("base_flag");
    const dependents = await ph.createFlags(
      Array.from({ length: 8 }, (_, i) => ({
        key: `dependent_flag_${i}`,
        name: `Flag DEPENDENT_FLAG_${i}`,
        filters: { groups: [{ properties: [dependency(base.id)], rollout_percentage: 100 }] },
      })),
    );
    const response = await softDelete(base.id);
    expect(response.status).toBe(400);
    for (const dependent of dependents.slice(0, 5)) {
      expect(response.body.detail).toContain(`${dependent.key} (ID: ${dependent.id})`);
    }
    expect(response.body.detail).toContain("and 3 more");
  });

  it(`${FILE}::test_cannot_delete_flag_in_dependency_chain`, async () => {
    const a = await createFlag("flag_a");
    const b = await createFlag("flag_b", [a.id]);
    const c = await createFlag("flag_c", [b.id]);
    const middle = await softDelete(b.id);
    expect(middle.status).toBe(400);
    expect(middle.body.detail).toContain(`${c.key} (ID: ${c.id})`);
    const start = await softDelete(a.id);
    expect(start.status).toBe(400);
    expect(start.body.detail).toContain(`${b.key} (ID: ${b.id})`);
    expect((await softDelete(c.id)).status).toBe(200);
  });

  it(`${FILE}::test_flag_with_mixed_properties_prevents_deletion`, async () => {
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
    const response = await softDelete(base.id);
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain(`${mixed.key} (ID: ${mixed.id})`);
  });

  it(`${FILE}::test_dependency_check_only_within_same_team`, async () => {
    const base = await createFlag("base_flag");
    await ph.createFlag({
      team_id: OTHER_TEAM,
      key: "other_team_flag",
      name: "Other Team Flag",
      filters: { groups: [{ properties: [dependency(base.id)], rollout_percentage: 100 }] },
    });
    expect((await softDelete(base.id)).status).toBe(200);
  });

  it(`${FILE}::test_dependent_flags_with_no_dependencies`, async () => {
    const flag = await createFlag("standalone_flag");
    const response = await ph.api("GET", `${FLAGS}/${flag.id}/dependent_flags/`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(`${FILE}::test_dependent_flags_with_active_dependencies`, async () => {
    const base = await createFlag("base_flag");
    await createFlag("dependent_flag", [base.id]);
    const response = await ph.api("GET", `${FLAGS}/${base.id}/dependent_flags/`);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
  });

  it(`${FILE}::test_dependent_flags_with_inactive_dependencies`, async () => {
    const base = await createFlag("base_flag");
    const dependent = await createFlag("dependent_flag", [base.id]);
    await ph.save(dependent.id, { active: false });
    const response = await ph.api("GET", `${FLAGS}/${base.id}/dependent_flags/`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});
