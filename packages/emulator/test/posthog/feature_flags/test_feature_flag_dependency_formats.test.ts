/**
 * Ported from PostHog's products/feature_flags/backend/api/test/test_feature_flag_dependency_formats.py
 * (PostHog revision: newest stored): a flag dependency may only reach flags stored in the v1
 * configuration format (filters without a `version`, or version 1).
 *
 * PostHog runs `test_non_v1_target_is_rejected_without_writes` under three settings of its
 * filters-validation rollout (`FEATURE_FLAG_FILTERS_ENFORCED_RULES`: `log`, `partial`, `full`), with the
 * same expected outcome in each. The emulator has one behaviour (no rollout setting to switch), so
 * the three pytest ids of a method and version are one case here, titled with all three
 * (`[post_0_log|partial|full]`), and counted once. `ActivityLog` rows are the emulator's activity log
 * (state, `activity_log`); left out: the analytics event (`report_user_action`, which no request can
 * observe). Not ported: `test_facade_writes_use_the_same_boundary` (calls
 * PostHog's internal facade functions) and `test_diamond_preserves_dependency_query_bound` (counts the
 * serializer's database queries).
 */
import { describe, expect, it } from "vitest";
import { notModelled, notPorted } from "../harness.js";
import { FLAGS, OTHER_TEAM, usePostHogFlags } from "./flags-harness.js";

const FILE = "products/feature_flags/backend/api/test/test_feature_flag_dependency_formats.py";
const ph = usePostHogFlags();
const t = (name: string) => `${FILE}::${name}`;

const dependencyFilters = (targets: Array<{ id: number }>, value: unknown = true) => ({
  groups: [
    {
      properties: targets.map((target) => ({
        key: target.id,
        type: "flag",
        value,
        operator: "flag_evaluates_to",
      })),
      rollout_percentage: 100,
    },
  ],
});

const UNSUPPORTED =
  "A flag dependency uses an unsupported configuration format. Remove this dependency to continue.";

describe(FILE, () => {
  const versions: unknown[] = [2, 2.0, 3, 1.5, "1", "2", true, false, null];
  for (const method of ["post", "put", "patch"]) {
    versions.forEach((version, index) => {
      it(`${t("test_non_v1_target_is_rejected_without_writes")}[${method}_${index}_log|partial|full]`, async () => {
        const targetFilters = { version, groups: "invalid", rules: [], seed: "invented-seed" };
        const [target, source] = await ph.createFlags([
          { key: "target", filters: targetFilters, version: 42 },
          { key: "source", filters: dependencyFilters([]), version: 7 },
        ]);
        const before = structuredClone(source.filters);
        const historyCount = (await ph.activity()).length;
        const url = method === "post" ? `${FLAGS}/` : `${FLAGS}/${source.id}/`;
        const response = await ph.api(method.toUpperCase(), url, {
          key: method === "post" ? "new-source" : source.key,
          filters: dependencyFilters([target]),
        });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe("unsupported_dependency_config_version");
        expect(response.body.attr).toBe("filters");
        expect(response.body.detail).toBe(UNSUPPORTED);
        expect((await ph.activity()).length).toBe(historyCount);
        const state = await ph.count();
        expect(state).toBe(2);
        const sourceAfter = await ph.row(source.id);
        const targetAfter = await ph.row(target.id);
        expect([sourceAfter.filters, sourceAfter.version]).toEqual([before, 7]);
        expect([targetAfter.filters, targetAfter.version]).toEqual([targetFilters, 42]);
      });
    });
  }

  for (const [version, value] of [
    [null, true],
    [1, false],
    [1.0, "blue"],
  ] as const) {
    it(`${t("test_v1_targets_keep_normalization_and_expected_values")}[${String(version)}_${String(value)}]`, async () => {
      const target = await ph.createFlag({
        key: "target",
        filters: { groups: [], ...(version ? { version } : {}) },
        version: 42,
      });
      const created = await ph.api("POST", `${FLAGS}/`, {
        key: "source",
        filters: dependencyFilters([target], value),
      });
      expect(created.status).toBe(201);
      const updated = await ph.api("PATCH", `${FLAGS}/${created.body.id}/`, {
        filters: { payloads: { true: '"sample"' } },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.filters.groups[0].properties[0]).toEqual({
        key: String(target.id),
        type: "flag",
        value,
        operator: "flag_evaluates_to",
      });
    });
  }

  for (const [name, shape] of [
    ["leaf", {}],
    ["misleading", { groups: [{ properties: [] }] }],
    ["malformed", { groups: [null] }],
  ] as const) {
    it(`${t("test_transitive_non_v1_target_is_not_a_leaf")}[${name}]`, async () => {
      const target = await ph.createFlag({ key: "target", filters: { version: 2, ...shape } });
      const middle = await ph.createFlag({ key: "middle", filters: dependencyFilters([target]) });
      const response = await ph.api("POST", `${FLAGS}/`, {
        key: "source",
        filters: dependencyFilters([middle]),
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("unsupported_dependency_config_version");
    });
  }

  for (const [name, mixed, malformed] of [
    ["group", false, false],
    ["mixed", true, false],
    ["malformed", false, true],
  ] as const) {
    it(`${t("test_aggregation_and_log_only_shapes_cannot_bypass_format_check")}[${name}]`, async () => {
      const target = await ph.createFlag({ key: "target", filters: { version: 2 } });
      const filters: { groups: unknown[] } = dependencyFilters([target]);
      (filters.groups[0] as Record<string, unknown>).aggregation_group_type_index = 0;
      if (mixed) filters.groups.push({ properties: [], rollout_percentage: 100 });
      let response: Awaited<ReturnType<typeof ph.api>>;
      if (malformed) {
        filters.groups.push(null);
        const source = await ph.createFlag({ key: "source", filters });
        response = await ph.api("PATCH", `${FLAGS}/${source.id}/`, { filters: { payloads: { true: "1" } } });
      } else {
        response = await ph.api("POST", `${FLAGS}/`, { key: "source", filters });
      }
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("unsupported_dependency_config_version");
    });
  }

  // The "merge" case is PostHog's own evidence that the newest service merges a PATCH's filters over
  // the stored ones: `payloads` alone is validated with the stored groups, whose dependency is refused.
  // The newest feature_flag.py agrees (`_validate_filters_inner`: `{**stored, **sent}`, #74761); an
  // older revision, which ignored filters without `groups`, would have answered 200. The port follows
  // the newest service (the emulator's default, `flag_filters_patch: "merge"`).
  for (const [name, data, expected] of [
    ["omitted", {}, 200],
    ["empty", { filters: {} }, 200],
    ["merge", { filters: { payloads: { true: "1" } } }, 400],
    ["remove", { filters: { groups: [] } }, 200],
  ] as const) {
    it(`${t("test_merged_candidate_and_metadata_compatibility")}[${name}]`, async () => {
      const target = await ph.createFlag({ key: "target", filters: { version: 2 } });
      const source = await ph.createFlag({ key: "source", filters: dependencyFilters([target]), version: 7 });
      const before = structuredClone(source.filters);
      const response = await ph.api("PATCH", `${FLAGS}/${source.id}/`, { name: "Changed", ...data });
      expect(response.status).toBe(expected);
      const row = await ph.row(source.id);
      expect(row.version).toBe(expected === 400 ? 7 : 8);
      expect(row.filters).toEqual(name === "remove" ? { groups: [] } : before);
    });
  }

  for (const [mode, transitive] of [
    ["patch", false],
    ["empty", false],
    ["action", false],
    ["restore", false],
    ["action", true],
  ] as const) {
    it(`${t("test_enabling_or_restoring_checks_stored_reachable_formats")}[${mode}_${transitive}]`, async () => {
      let target = await ph.createFlag({ key: "target", filters: { version: 2 } });
      if (transitive) target = await ph.createFlag({ key: "middle", filters: dependencyFilters([target]) });
      const source = await ph.createFlag({
        key: "source",
        filters: dependencyFilters([target]),
        active: mode === "restore",
        deleted: mode === "restore",
        version: 7,
      });
      const url = `${FLAGS}/${source.id}/`;
      const response =
        mode === "action"
          ? await ph.api("POST", `${url}enable/`, {})
          : await ph.api(
              "PATCH",
              url,
              mode === "restore"
                ? { deleted: false }
                : { active: true, ...(mode === "empty" ? { filters: {} } : {}) },
            );
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("unsupported_dependency_config_version");
      expect((await ph.row(source.id)).version).toBe(7);
    });
  }

  for (const action of ["disable", "archive", "delete", "bulk_delete"]) {
    it(`${t("test_restrictive_actions_do_not_require_graph_repair")}[${action}]`, async () => {
      const target = await ph.createFlag({ key: "target", filters: { version: 2 } });
      const source = await ph.createFlag({ key: "source", filters: dependencyFilters([target]) });
      const response =
        action === "delete"
          ? await ph.api("PATCH", `${FLAGS}/${source.id}/`, { deleted: true })
          : action === "bulk_delete"
            ? await ph.api("POST", `${FLAGS}/bulk_delete/`, { ids: [source.id] })
            : await ph.api("POST", `${FLAGS}/${source.id}/${action}/`, {});
      expect([200, 204]).toContain(response.status);
    });
  }

  it(t("test_out_of_project_target_keeps_missing_reference_error"), async () => {
    const target = await ph.createFlag({
      team_id: OTHER_TEAM,
      key: "private-target",
      filters: { version: 2 },
    });
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "source",
      filters: dependencyFilters([target]),
    });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe(`Flag dependency references non-existent flag with ID ${target.id}`);
  });

  for (const version of [1, 2]) {
    notModelled(
      `${t("test_reference_scope_remains_project_wide")}[${version}]`,
      "several teams (environments) of one project are not modelled: a project is one team",
    );
  }

  for (const [name, active, deleted] of [
    ["inactive", false, false],
    ["deleted", true, true],
  ] as const) {
    it(`${t("test_reference_status_errors_precede_target_format")}[${name}]`, async () => {
      const target = await ph.createFlag({ key: "target", filters: { version: 2 }, active, deleted });
      const response = await ph.api("POST", `${FLAGS}/`, {
        key: "source",
        filters: dependencyFilters([target]),
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("invalid_input");
      expect(response.body.detail).toContain(deleted ? "non-existent" : "disabled flag");
    });
  }

  it(t("test_enabling_can_remove_a_forbidden_dependency"), async () => {
    const target = await ph.createFlag({ key: "target", filters: { version: 2 } });
    const source = await ph.createFlag({
      key: "source",
      filters: dependencyFilters([target]),
      active: false,
    });
    const response = await ph.api("PATCH", `${FLAGS}/${source.id}/`, {
      active: true,
      filters: { groups: [] },
    });
    expect(response.status).toBe(200);
    const row = await ph.row(source.id);
    expect(row.active).toBe(true);
    expect(row.filters.groups).toEqual([]);
  });

  for (const name of ["user", "system"]) {
    notPorted(
      `${t("test_facade_writes_use_the_same_boundary")}[${name}]`,
      "calls PostHog's internal facade functions, not the API",
    );
  }
  for (const name of ["person", "group", "wide_group"]) {
    notPorted(`${t("test_diamond_preserves_dependency_query_bound")}[${name}]`, "counts database queries");
  }
});
