/**
 * Ported from PostHog's products/feature_flags/backend/api/test/test_feature_flag.py, the classes after
 * `TestFeatureFlag`, in the file's order: `TestCohortGenerationForFeatureFlag` and `TestBlastRadius`
 * (not ported), `TestFeatureFlagEvaluationContexts`, `TestFeatureFlagStatus` (`…/:id/status` and the
 * list's STALE filter), `TestFeatureFlagMatchingIds`, `TestFeatureFlagBulkDelete`,
 * `TestFeatureFlagLimits` (PostHog's `self.settings(MAX_…)` is the emulator's service setting of the
 * same name), `TestFeatureFlagVersions`, `TestFeatureFlagTestEvaluation` and
 * `TestFeatureFlagEvaluationReasons` (not ported). PostHog revision: 00c79cbc.
 *
 * Not ported: the cohort a flag generates and the blast radius (persons and groups in ClickHouse, the
 * flag service's batch evaluation), the flags cache, the activity log, version history, and the flag
 * service's test and evaluation-reason endpoints (none served).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { notPorted } from "../harness.js";
import { FLAGS, OTHER_TEAM, usePostHogFlags } from "./flags-harness.js";

const FILE = "products/feature_flags/backend/api/test/test_feature_flag.py";
const ph = usePostHogFlags();
const t = (name: string, id?: string) => `${FILE}::${name}${id === undefined ? "" : `[${id}]`}`;
const half = { groups: [{ rollout_percentage: 50, properties: [] }] };
const full = { groups: [{ rollout_percentage: 100, properties: [] }] };
const smith = [{ key: "name", type: "person", value: ["Smith"], operator: "contains" }];

const COHORT_GENERATION =
  "get_cohort_actors_for_feature_flag (a flag's static cohort) evaluates persons in ClickHouse through the flag service";
const BLAST_RADIUS = "the user_blast_radius endpoint counts persons and groups in ClickHouse (not served)";
const CACHE = "reads the flags cache of the flag service";
const VERSIONS = "the versions endpoint (version history rebuilt from the activity log) is not served";
const TEST_EVALUATION = "the test_evaluation endpoint (the flag service's evaluation) is not served";
const EVALUATION_REASONS = "the evaluation_reasons endpoint (the flag service's evaluation) is not served";

describe("TestCohortGenerationForFeatureFlag", () => {
  for (const name of [
    "test_deleted_flag_returns_empty_without_calling_service",
    "test_inactive_flag_returns_empty_without_calling_service",
    "test_group_flag_returns_empty_without_calling_service",
    "test_non_existing_flag_returns_empty_without_calling_service",
  ]) {
    notPorted(t(name), COHORT_GENERATION);
  }
  for (const id of ["inactive_flag", "group_aggregated_flag", "missing_flag"]) {
    notPorted(t("test_guard_paths_clear_is_calculating", id), COHORT_GENERATION);
  }
  for (const name of [
    "test_matched_persons_are_added_to_cohort",
    "test_flag_matching_nobody_finalizes_empty_cohort",
    "test_cursor_loop_advances_and_terminates",
    "test_non_advancing_cursor_fails_instead_of_looping",
    "test_transient_errors_retry_then_succeed",
    "test_persistent_errors_exhaust_retries_and_propagate",
    "test_version_conflict_is_not_retried_and_surfaces_user_facing_error",
    "test_client_errors_are_not_retried",
    "test_server_errors_are_retried",
    "test_rerun_after_failure_is_idempotent",
    "test_per_person_eval_errors_do_not_fail_the_run",
    "test_insert_batching_flushes_mid_run",
    "test_insert_failure_is_recorded_as_failure_not_success",
  ]) {
    notPorted(t(name), COHORT_GENERATION);
  }
});

describe("TestBlastRadius", () => {
  for (const name of [
    "test_user_blast_radius",
    "test_user_blast_radius_with_flag_dependency",
    "test_user_blast_radius_with_flag_dependency_and_person_property",
    "test_user_blast_radius_with_groups_and_flag_dependency",
    "test_user_blast_radius_persons_with_groups_and_flag_dependency",
    "test_user_blast_radius_with_relative_date_filters",
    "test_user_blast_radius_with_zero_users",
    "test_user_blast_radius_with_zero_selected_users",
    "test_user_blast_radius_with_all_selected_users",
    "test_user_blast_radius_with_distinct_id_filter",
    "test_user_blast_radius_with_distinct_id_filter_multiple_distinct_ids_per_person",
    "test_user_blast_radius_with_single_cohort",
    "test_user_blast_radius_with_multiple_precalculated_cohorts",
    "test_user_blast_radius_with_multiple_static_cohorts",
    "test_user_blast_radius_with_groups",
    "test_user_blast_radius_with_groups_zero_selected",
    "test_user_blast_radius_with_groups_all_selected",
    "test_user_blast_radius_with_groups_multiple_queries",
    "test_user_blast_radius_with_group_key_property",
    "test_user_blast_radius_with_integer_property_values",
  ]) {
    notPorted(t(name), BLAST_RADIUS);
  }
  for (const id of ["regex", "not_regex", "not_icontains"]) {
    notPorted(t("test_user_blast_radius_with_group_key_operators", id), BLAST_RADIUS);
  }
  for (const name of [
    "test_user_blast_radius_with_group_key_and_regular_properties",
    "test_user_blast_radius_with_dynamic_cohort",
    "test_user_blast_radius_with_groups_incorrect_group_type",
    "test_user_blast_radius_with_group_key_unsupported_operator",
    "test_user_blast_radius_with_group_key_exact_list_values",
    "test_user_blast_radius_with_group_key_is_not_list_values",
    "test_user_blast_radius_with_group_key_icontains_list_values_raises_error",
    "test_user_blast_radius_with_semver_operators",
    "test_user_blast_radius_with_semver_caret_0x_versions",
    "test_user_blast_radius_with_semver_operators_on_groups",
    "test_user_blast_radius_person_condition_separate_from_group_condition",
    "test_user_blast_radius_pure_person_condition_has_no_group_counts",
    "test_user_blast_radius_with_group_key_filter",
    "test_user_blast_radius_cohort_condition_and_group_condition_separate",
    "test_user_blast_radius_no_error_fields_for_successful_queries",
  ]) {
    notPorted(t(name), BLAST_RADIUS);
  }
});

describe("TestFeatureFlagEvaluationContexts", () => {
  // setUp patches `posthoganalytics.feature_enabled` to True: `flag-evaluation-tags` is on.
  beforeEach(() => ph.serviceFlag("flag-evaluation-tags", true));

  it(t("test_create_feature_flag_with_evaluation_contexts"), async () => {
    const response = await ph.api("POST", `${FLAGS}/`, {
      name: "Flag with evaluation contexts",
      key: "flag-with-eval-tags",
      filters: full,
      tags: ["app", "marketing", "docs"],
      evaluation_contexts: ["app", "docs"],
    });
    expect(response.status).toBe(201);
    const row = await ph.row(response.body.id);
    expect(row.tags).toHaveLength(3);
    expect([...row.tags].sort()).toEqual(["app", "docs", "marketing"]);
    expect(row.evaluation_contexts).toHaveLength(2);
    expect([...row.evaluation_contexts].sort()).toEqual(["app", "docs"]);
  });

  it(t("test_update_feature_flag_evaluation_contexts"), async () => {
    const flag = await ph.createFlag({ key: "test-flag", name: "Test Flag", filters: full });
    let response = await ph.api("PATCH", `${FLAGS}/${flag.id}/`, {
      tags: ["app", "marketing"],
      evaluation_contexts: ["app"],
    });
    expect(response.status).toBe(200);
    let row = await ph.row(flag.id);
    expect(row.evaluation_contexts).toHaveLength(1);
    expect(row.evaluation_contexts[0]).toBe("app");
    response = await ph.api("PATCH", `${FLAGS}/${flag.id}/`, {
      tags: ["app", "marketing", "docs"],
      evaluation_contexts: ["marketing", "docs"],
    });
    expect(response.status).toBe(200);
    row = await ph.row(flag.id);
    expect(row.evaluation_contexts).toHaveLength(2);
    expect([...row.evaluation_contexts].sort()).toEqual(["docs", "marketing"]);
  });

  it(t("test_remove_all_evaluation_contexts"), async () => {
    const flag = await ph.createFlag({ key: "test-flag", name: "Test Flag", filters: full });
    await ph.api("PATCH", `${FLAGS}/${flag.id}/`, {
      tags: ["app", "marketing"],
      evaluation_contexts: ["app", "marketing"],
    });
    expect((await ph.row(flag.id)).evaluation_contexts).toHaveLength(2);
    const response = await ph.api("PATCH", `${FLAGS}/${flag.id}/`, {
      tags: ["app", "marketing"],
      evaluation_contexts: [],
    });
    expect(response.status).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.evaluation_contexts).toHaveLength(0);
    expect(row.tags).toHaveLength(2);
  });

  notPorted(
    t("test_evaluation_contexts_in_minimal_serializer"),
    "a unit test of the MinimalFeatureFlagSerializer (no request)",
  );

  it(t("test_evaluation_contexts_independent_from_tags"), async () => {
    let response = await ph.api("POST", `${FLAGS}/`, {
      name: "Independent contexts",
      key: "independent-contexts",
      filters: full,
      tags: ["app", "docs"],
      evaluation_contexts: ["production", "staging"],
    });
    expect(response.status).toBe(201);
    expect([...response.body.evaluation_contexts].sort()).toEqual(["production", "staging"]);
    response = await ph.api("POST", `${FLAGS}/`, {
      name: "Contexts without tags",
      key: "contexts-no-tags",
      filters: full,
      tags: [],
      evaluation_contexts: ["production"],
    });
    expect(response.status).toBe(201);
    expect(response.body.evaluation_contexts).toEqual(["production"]);
  });

  it(t("test_evaluation_contexts_hidden_when_feature_flag_disabled"), async () => {
    await ph.serviceFlag("flag-evaluation-tags", false);
    const created = await ph.api("POST", `${FLAGS}/`, {
      name: "Flag with evaluation contexts",
      key: "flag-with-eval-tags-disabled",
      filters: full,
      tags: ["web", "mobile"],
      evaluation_contexts: ["web"],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await ph.row(id)).evaluation_contexts).toHaveLength(0);
    let response = await ph.api("GET", `${FLAGS}/${id}/`);
    expect(response.status).toBe(200);
    expect(response.body.evaluation_contexts).toEqual([]);
    response = await ph.api("PATCH", `${FLAGS}/${id}/`, {
      name: "Updated flag with disabled feature flag",
      evaluation_contexts: ["web", "mobile"],
    });
    expect(response.status).toBe(200);
    expect((await ph.row(id)).evaluation_contexts).toHaveLength(0);
    await ph.serviceFlag("flag-evaluation-tags", true);
    response = await ph.api("GET", `${FLAGS}/${id}/`);
    expect(response.status).toBe(200);
    expect(response.body.evaluation_contexts).toEqual([]);
  });

  notPorted(t("test_evaluation_contexts_in_cache"), CACHE);
  for (const id of ["with_experiment", "without_experiment"]) {
    notPorted(t("test_has_experiment_survives_cache_round_trip", id), CACHE);
  }
  notPorted(t("test_evaluation_contexts_cache_invalidation"), CACHE);
  notPorted(t("test_cache_read_back_ignores_unknown_non_model_key"), CACHE);
  for (const id of ["current_key", "legacy_key", "both_keys_current_wins"]) {
    notPorted(t("test_cache_read_back_accepts_evaluation_context_keys", id), CACHE);
  }
  for (const id of ["add_contexts", "update_contexts", "remove_all_contexts"]) {
    notPorted(t("test_evaluation_context_change_is_logged", id), "reads the activity log (not served)");
  }
  notPorted(
    t("test_no_activity_log_when_evaluation_contexts_unchanged"),
    "reads the activity log (not served)",
  );
});

describe("TestFeatureFlagStatus", () => {
  /** `assert_expected_response`: `GET …/:id/status` answers the status and, when given, the reason. */
  const expectStatus = async (id: number, status: string, reason?: string) => {
    const response = await ph.api("GET", `${FLAGS}/${id}/status`);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe(status);
    if (reason !== undefined) expect(response.body.reason).toBe(reason);
  };
  const old = () => ph.daysAgo(31);
  const yesterday = () => ph.daysAgo(1);

  it(t("test_flag_status_reasons"), async () => {
    const missing = await ph.api("GET", `${FLAGS}/1/status`);
    expect(missing.status).toBe(404);
    const rows: Array<[Record<string, unknown>, string, string?]> = [
      [{ key: "deleted-feature-flag", deleted: true, active: true }, "deleted", "Flag has been deleted"],
      [{ key: "disabled-feature-flag", active: false, last_called_at: yesterday() }, "active"],
      [
        {
          key: "feature-enrollment-flag",
          active: true,
          filters: { feature_enrollment: true },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "50-percent-holdout-flag",
          active: true,
          filters: { holdout: { id: 1, exclusion_percentage: 50 } },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "100-percent-holdout-flag",
          active: true,
          filters: { holdout: { id: 2, exclusion_percentage: 100 } },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "multivariate-no-rolled-out-variants-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "var1key", name: "test", rollout_percentage: 50 },
                { key: "var2key", name: "control", rollout_percentage: 50 },
              ],
            },
          },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "multivariate-rolled-out-variant-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "test", rollout_percentage: 100 },
                { key: "control", rollout_percentage: 0 },
              ],
            },
            groups: [{ variant: null, properties: [], rollout_percentage: 100 }],
          },
          last_called_at: null,
        },
        "stale",
        'This flag will always use the variant "test"',
      ],
      [
        {
          key: "multivariate-rolled-out-variant-no-release-rolled-out-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "var1key", name: "test", rollout_percentage: 100 },
                { key: "var2key", name: "control", rollout_percentage: 0 },
              ],
            },
            groups: [
              { variant: null, properties: [], rollout_percentage: 20 },
              { variant: null, properties: [], rollout_percentage: 30 },
            ],
          },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "multivariate-rolled-out-release-half-variant-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "var1key", name: "test", rollout_percentage: 50 },
                { key: "var2key", name: "control", rollout_percentage: 50 },
              ],
            },
            groups: [{ variant: null, properties: [], rollout_percentage: 100 }],
          },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "multivariate-rolled-out-variant-and-release-condition-with-properties-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "var1key", name: "test", rollout_percentage: 100 },
                { key: "var2key", name: "control", rollout_percentage: 0 },
              ],
            },
            groups: [{ variant: null, properties: smith, rollout_percentage: 100 }],
          },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "multivariate-rolled-out-filtered-release-condition-and-override-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "var1key", name: "test", rollout_percentage: 60 },
                { key: "var2key", name: "control", rollout_percentage: 40 },
              ],
            },
            groups: [{ variant: "var1key", properties: smith, rollout_percentage: 100 }],
          },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "multivariate-rolled-out-release-condition-and-override-flag",
          active: true,
          filters: {
            multivariate: {
              variants: [
                { key: "test", rollout_percentage: 60 },
                { key: "control", rollout_percentage: 40 },
              ],
            },
            groups: [{ variant: "test", properties: [], rollout_percentage: 100 }],
          },
          last_called_at: null,
        },
        "stale",
        'This flag will always use the variant "test"',
      ],
      [
        { key: "boolean-empty-filters-flag", active: true, filters: {}, last_called_at: null },
        "stale",
        'This boolean flag will always evaluate to "true"',
      ],
      [
        {
          key: "boolean-no-rolled-out-release-conditions-flag",
          active: true,
          filters: {
            groups: [
              { properties: [], rollout_percentage: 99 },
              { properties: [], rollout_percentage: 99 },
              { properties: smith, rollout_percentage: 100 },
            ],
          },
          last_called_at: yesterday(),
        },
        "active",
      ],
      [
        {
          key: "boolean-rolled-out-release-condition-flag",
          active: true,
          filters: {
            groups: [
              { properties: smith, rollout_percentage: 50 },
              { properties: [], rollout_percentage: 100 },
            ],
          },
          last_called_at: null,
        },
        "stale",
        'This boolean flag will always evaluate to "true"',
      ],
      [
        {
          key: "boolean-rolled-out-release-condition-29-days-ago-flag",
          created_at: ph.daysAgo(29),
          active: true,
          filters: full,
        },
        "active",
      ],
      [
        {
          key: "boolean-recently-evaluated-flag",
          active: true,
          filters: { groups: [{ properties: smith, rollout_percentage: 50 }] },
          last_called_at: yesterday(),
        },
        "active",
      ],
    ];
    for (const [row, status, reason] of rows) {
      const flag = await ph.createFlag({ created_at: old(), name: String(row.key), ...row });
      await expectStatus(flag.id, status, reason);
    }
  });

  it(t("test_flag_status_old_flag_no_usage_data_not_fully_rolled_out_is_active"), async () => {
    const flag = await ph.createFlag({
      created_at: ph.daysAgo(31),
      name: "Never called flag",
      key: "never-called-flag",
      active: true,
      last_called_at: null,
      filters: half,
    });
    await expectStatus(flag.id, "active");
  });

  it(t("test_flag_status_stale_by_usage_not_recently_called"), async () => {
    const flag = await ph.createFlag({
      created_at: ph.daysAgo(60),
      name: "Not recently called flag",
      key: "not-recently-called-flag",
      active: true,
      last_called_at: ph.daysAgo(35),
      filters: half,
    });
    await expectStatus(flag.id, "stale");
  });

  it(t("test_flag_status_new_flag_without_calls_not_stale"), async () => {
    const flag = await ph.createFlag({
      created_at: ph.daysAgo(5),
      name: "New flag",
      key: "new-flag",
      active: true,
      last_called_at: null,
      filters: half,
    });
    await expectStatus(flag.id, "active");
  });

  it(t("test_flag_status_cross_team_returns_404"), async () => {
    const [other] = await ph.createFlags([
      { name: "Other team flag", key: "other-team-flag", team_id: 22222, active: true, filters: full },
    ]);
    const response = await ph.api("GET", `${FLAGS}/${other.id}/status`);
    expect(response.status).toBe(404);
  });

  it(t("test_flag_status_recently_called_at_100_rollout_is_active"), async () => {
    const flag = await ph.createFlag({
      created_at: ph.daysAgo(60),
      name: "Recently called flag",
      key: "recently-called-flag",
      active: true,
      filters: full,
      last_called_at: ph.daysAgo(1),
    });
    await expectStatus(flag.id, "active");
  });

  for (const [name, filters, rollout] of [
    [
      "full_rollout",
      full,
      {
        effectively_full_rollout: true,
        has_targeting_conditions: false,
        max_rollout_percentage: 100,
        is_multivariate: false,
      },
    ],
    [
      "targeted",
      { groups: [{ rollout_percentage: 50, properties: [{ key: "email", value: "x" }] }] },
      {
        effectively_full_rollout: false,
        has_targeting_conditions: true,
        max_rollout_percentage: 50,
        is_multivariate: false,
      },
    ],
    [
      "multivariate",
      {
        multivariate: { variants: [{ key: "control", rollout_percentage: 100 }] },
        groups: [{ rollout_percentage: 100, properties: [] }],
      },
      {
        effectively_full_rollout: true,
        has_targeting_conditions: false,
        max_rollout_percentage: 100,
        is_multivariate: true,
      },
    ],
  ] as const) {
    it(t("test_flag_status_includes_rollout_summary", name), async () => {
      const flag = await ph.createFlag({
        name: `${name} flag`,
        key: `${name}-flag`,
        active: true,
        filters,
        last_called_at: ph.daysAgo(0),
      });
      const response = await ph.api("GET", `${FLAGS}/${flag.id}/status`);
      expect(response.status).toBe(200);
      expect(response.body.rollout).toEqual(rollout);
    });
  }

  it(t("test_get_flags_with_stale_filter_usage_and_config_based"), async () => {
    const created_at = ph.daysAgo(60);
    await ph.createFlags([
      { created_at, key: "stale_by_usage_flag", active: true, last_called_at: ph.daysAgo(35), filters: half },
      { created_at, key: "stale_by_config_flag", active: true, last_called_at: null, filters: full },
      {
        created_at,
        key: "active_flag",
        active: true,
        last_called_at: new Date(ph.clock.now() - 3_600_000).toISOString(),
        filters: half,
      },
      { created_at, key: "no_data_partial_rollout_flag", active: true, last_called_at: null, filters: half },
      {
        created_at: ph.daysAgo(5),
        key: "new_uncalled_flag",
        active: true,
        last_called_at: null,
        filters: half,
      },
    ]);
    const response = await ph.api("GET", "/api/projects/@current/feature_flags?active=STALE");
    const results = response.body.results as Array<{ key: string; status: string }>;
    expect(results).toHaveLength(2);
    expect(new Set(results.map((r) => r.key))).toEqual(
      new Set(["stale_by_usage_flag", "stale_by_config_flag"]),
    );
    for (const result of results) expect(result.status).toBe("STALE");
  });
});

describe("TestFeatureFlagMatchingIds", () => {
  const matching = async (query = "") => {
    const response = await ph.api("GET", `${FLAGS}/matching_ids/${query}`);
    expect(response.status).toBe(200);
    return response.body as { ids: number[]; total: number };
  };

  it(t("test_matching_ids_returns_all_flags"), async () => {
    const flags = await ph.createFlags([0, 1, 2, 3, 4].map((i) => ({ key: `flag_${i}`, filters: half })));
    const data = await matching();
    expect(data.total).toBe(5);
    expect(new Set(data.ids)).toEqual(new Set(flags.map((f) => f.id)));
  });

  it(t("test_matching_ids_respects_search_filter"), async () => {
    const [flag1, flag2] = await ph.createFlags([
      { key: "test_feature_a", filters: half },
      { key: "test_feature_b", filters: half },
      { key: "other_flag", filters: half },
    ]);
    const data = await matching("?search=test_feature");
    expect(data.total).toBe(2);
    expect(new Set(data.ids)).toEqual(new Set([flag1.id, flag2.id]));
  });

  it(t("test_matching_ids_respects_active_filter"), async () => {
    const [active] = await ph.createFlags([
      { key: "active_flag", active: true, filters: half },
      { key: "inactive_flag", active: false, filters: half },
    ]);
    const data = await matching("?active=true");
    expect(data.total).toBe(1);
    expect(data.ids).toEqual([active.id]);
  });

  it(t("test_matching_ids_excludes_archived_by_default"), async () => {
    const [visible, archived] = await ph.createFlags([
      { key: "visible_flag", filters: half },
      { key: "archived_flag", archived: true, active: false, filters: half },
    ]);
    const ids = (await matching()).ids;
    expect(ids).toContain(visible.id);
    expect(ids).not.toContain(archived.id);
    expect((await matching("?archived=true")).ids).toEqual([archived.id]);
  });

  it(t("test_matching_ids_excludes_deleted_flags"), async () => {
    const [flag] = await ph.createFlags([
      { key: "active_flag", filters: half },
      { key: "deleted_flag", deleted: true, filters: half },
    ]);
    const data = await matching();
    expect(data.total).toBe(1);
    expect(data.ids).toEqual([flag.id]);
  });

  it(t("test_matching_ids_cross_project_isolation"), async () => {
    const [flag] = await ph.createFlags([
      { key: "my_flag", filters: half },
      { key: "other_team_flag", team_id: OTHER_TEAM, filters: half },
    ]);
    const data = await matching();
    expect(data.total).toBe(1);
    expect(data.ids).toEqual([flag.id]);
  });

  it(t("test_matching_ids_respects_type_filter"), async () => {
    const [boolean] = await ph.createFlags([
      { key: "boolean_flag", filters: half },
      {
        key: "multivariate_flag",
        filters: {
          ...half,
          multivariate: {
            variants: [
              { key: "a", rollout_percentage: 50 },
              { key: "b", rollout_percentage: 50 },
            ],
          },
        },
      },
    ]);
    const data = await matching("?type=boolean");
    expect(data.total).toBe(1);
    expect(data.ids).toEqual([boolean.id]);
  });
});

describe("TestFeatureFlagBulkDelete", () => {
  const bulkDelete = (body: unknown) => ph.api("POST", `${FLAGS}/bulk_delete/`, body);
  const twoVariants = {
    variants: [
      { key: "a", rollout_percentage: 50 },
      { key: "b", rollout_percentage: 50 },
    ],
  };

  it(t("test_bulk_delete_by_filter_with_search"), async () => {
    const [flag1, flag2, other] = await ph.createFlags([
      { key: "test_feature_a", filters: half },
      { key: "test_feature_b", filters: half },
      { key: "other_flag", filters: half },
    ]);
    const response = await bulkDelete({ filters: { search: "test_feature" } });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(2);
    expect(new Set(response.body.deleted.map((d: { id: number }) => d.id))).toEqual(
      new Set([flag1.id, flag2.id]),
    );
    expect(response.body.errors).toHaveLength(0);
    expect((await ph.row(flag1.id)).deleted).toBe(true);
    expect((await ph.row(flag2.id)).deleted).toBe(true);
    expect((await ph.row(other.id)).deleted).toBe(false);
  });

  it(t("test_bulk_delete_by_filter_with_active_status"), async () => {
    const [active, inactive] = await ph.createFlags([
      { key: "active_flag", active: true, filters: half },
      { key: "inactive_flag", active: false, filters: half },
    ]);
    const response = await bulkDelete({ filters: { active: "false" } });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(1);
    expect(response.body.deleted[0].id).toBe(inactive.id);
    expect((await ph.row(active.id)).deleted).toBe(false);
    expect((await ph.row(inactive.id)).deleted).toBe(true);
  });

  it(t("test_bulk_delete_by_filter_excludes_archived_by_default"), async () => {
    const [archived, inactive] = await ph.createFlags([
      { key: "archived_inactive_flag", archived: true, active: false, filters: half },
      { key: "plain_inactive_flag", active: false, filters: half },
    ]);
    const response = await bulkDelete({ filters: { active: "false" } });
    expect(response.status).toBe(200);
    expect((await ph.row(archived.id)).deleted).toBe(false);
    expect((await ph.row(inactive.id)).deleted).toBe(true);
  });

  it(t("test_bulk_delete_by_ids_no_limit"), async () => {
    const flags = await ph.createFlags(
      Array.from({ length: 150 }, (_, i) => ({ key: `flag_${i}`, filters: half })),
    );
    const response = await bulkDelete({ ids: flags.map((f) => f.id) });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(150);
    expect(response.body.errors).toHaveLength(0);
  });

  it(t("test_bulk_delete_validates_running_experiments"), async () => {
    const flag = await ph.createFlag({ key: "experiment_flag", filters: half });
    await ph.createExperiment({ name: "Test Experiment", feature_flag: flag.id, start_date: ph.daysAgo(0) });
    const response = await bulkDelete({ ids: [flag.id] });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(0);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].reason).toContain(
      'Cannot delete a feature flag linked to running experiment(s): "Test Experiment"',
    );
    expect((await ph.row(flag.id)).deleted).toBe(false);
  });

  it(t("test_bulk_delete_allows_flag_linked_to_stopped_experiment"), async () => {
    const flag = await ph.createFlag({ key: "stopped_experiment_flag", filters: half });
    const now = ph.daysAgo(0);
    await ph.createExperiment({
      name: "Stopped Experiment",
      feature_flag: flag.id,
      start_date: now,
      end_date: now,
    });
    const response = await bulkDelete({ ids: [flag.id] });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(1);
    expect(response.body.errors).toHaveLength(0);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(true);
    expect(row.key).toBe(`stopped_experiment_flag:deleted:${flag.id}`);
  });

  it(t("test_bulk_delete_requires_filters_or_ids"), async () => {
    const response = await bulkDelete({});
    expect(response.status).toBe(400);
    expect(response.body.error).toContain("Must provide either filters or ids");
  });

  it(t("test_bulk_delete_rejects_both_filters_and_ids"), async () => {
    const flag = await ph.createFlag({ key: "test_flag", filters: half });
    const response = await bulkDelete({ filters: { search: "test" }, ids: [flag.id] });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain("either filters or ids, not both");
  });

  it(t("test_bulk_delete_cross_project_isolation"), async () => {
    const [mine, other] = await ph.createFlags([
      { key: "my_flag", filters: half },
      { key: "other_team_flag", team_id: OTHER_TEAM, filters: half },
    ]);
    const response = await bulkDelete({ ids: [mine.id, other.id] });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(1);
    expect(response.body.deleted[0].id).toBe(mine.id);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].id).toBe(other.id);
    expect(response.body.errors[0].reason).toBe("Flag not found");
    expect((await ph.row(other.id)).deleted).toBe(false);
  });

  it(t("test_bulk_delete_by_filter_with_type"), async () => {
    const [boolean, multivariate] = await ph.createFlags([
      { key: "boolean_flag", filters: half },
      { key: "multivariate_flag", filters: { ...half, multivariate: twoVariants } },
    ]);
    const response = await bulkDelete({ filters: { type: "boolean" } });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(1);
    expect(response.body.deleted[0].id).toBe(boolean.id);
    expect((await ph.row(boolean.id)).deleted).toBe(true);
    expect((await ph.row(multivariate.id)).deleted).toBe(false);
  });

  it(t("test_bulk_delete_includes_rollout_state"), async () => {
    const flags = await ph.createFlags([
      { key: "fully_rolled_out", filters: full },
      { key: "zero_rollout", filters: { groups: [{ rollout_percentage: 0, properties: [] }] } },
      { key: "partial_rollout", filters: half },
      {
        key: "multivariate_full",
        filters: {
          groups: [{ rollout_percentage: 100, properties: [], variant: "winner" }],
          multivariate: {
            variants: [
              { key: "winner", rollout_percentage: 100 },
              { key: "loser", rollout_percentage: 0 },
            ],
          },
        },
      },
      { key: "empty_variants", filters: { ...full, multivariate: { variants: [] } } },
    ]);
    const response = await bulkDelete({ ids: flags.map((f) => f.id) });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(5);
    const byKey = Object.fromEntries(response.body.deleted.map((d: { key: string }) => [d.key, d]));
    expect(byKey.fully_rolled_out.rollout_state).toBe("fully_rolled_out");
    expect(byKey.fully_rolled_out.active_variant).toBeNull();
    expect(byKey.zero_rollout.rollout_state).toBe("not_rolled_out");
    expect(byKey.zero_rollout.active_variant).toBeNull();
    expect(byKey.partial_rollout.rollout_state).toBe("partial");
    expect(byKey.partial_rollout.active_variant).toBeNull();
    expect(byKey.multivariate_full.rollout_state).toBe("fully_rolled_out");
    expect(byKey.multivariate_full.active_variant).toBe("winner");
    expect(byKey.empty_variants.rollout_state).toBe("fully_rolled_out");
    expect(byKey.empty_variants.active_variant).toBeNull();
  });

  it(t("test_bulk_delete_with_dependent_flags"), async () => {
    const base = await ph.createFlag({ key: "base_flag", filters: full });
    await ph.createFlag({
      key: "dependent_flag",
      filters: {
        groups: [
          { rollout_percentage: 100, properties: [{ key: String(base.id), type: "flag", value: "true" }] },
        ],
      },
    });
    const response = await bulkDelete({ ids: [base.id] });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(0);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].reason).toContain("other flags depend on it");
    expect((await ph.row(base.id)).deleted).toBe(false);
  });

  it(t("test_bulk_delete_renames_key_with_soft_deleted_experiment"), async () => {
    const flag = await ph.createFlag({ key: "flag_with_deleted_exp", filters: half });
    await ph.createExperiment({ feature_flag: flag.id, deleted: true });
    const response = await bulkDelete({ ids: [flag.id] });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(1);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(true);
    expect(row.key).toBe(`flag_with_deleted_exp:deleted:${flag.id}`);
  });

  it(t("test_bulk_delete_rejects_unknown_filter_keys"), async () => {
    const response = await bulkDelete({ filters: { invalid_key: "value", another_bad_key: "test" } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain("Unknown filter keys");
    expect(response.body.error).toContain("another_bad_key");
    expect(response.body.error).toContain("invalid_key");
  });

  notPorted(
    t("test_bulk_delete_creates_activity_logs_for_all_deleted_flags"),
    "reads the activity log (not served)",
  );

  it(t("test_bulk_delete_sets_last_modified_by"), async () => {
    const flags = await ph.createFlags(
      [0, 1, 2].map((i) => ({ key: `flag_${i}`, filters: half, last_modified_by: null })),
    );
    const response = await bulkDelete({ ids: flags.map((f) => f.id) });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(3);
    for (const flag of flags) {
      const row = await ph.row(flag.id);
      expect(row.deleted).toBe(true);
      expect(row.last_modified_by).toBe(1);
    }
  });

  notPorted(t("test_bulk_delete_invalidates_cache_efficiently"), CACHE);

  it(t("test_bulk_delete_handles_mixed_key_rename_scenarios"), async () => {
    const [normal, withExperiment] = await ph.createFlags([
      { key: "normal_flag", filters: half },
      { key: "flag_with_deleted_exp", filters: half },
    ]);
    await ph.createExperiment({ feature_flag: withExperiment.id, deleted: true });
    const response = await bulkDelete({ ids: [normal.id, withExperiment.id] });
    expect(response.status).toBe(200);
    expect(response.body.deleted).toHaveLength(2);
    const normalRow = await ph.row(normal.id);
    expect(normalRow.deleted).toBe(true);
    expect(normalRow.key).toBe("normal_flag");
    const renamed = await ph.row(withExperiment.id);
    expect(renamed.deleted).toBe(true);
    expect(renamed.key).toBe(`flag_with_deleted_exp:deleted:${withExperiment.id}`);
  });
});

describe("TestFeatureFlagLimits", () => {
  /** `_create_flag(key, filters)`: a row of the team with one 100% condition by default. */
  const createFlag = (key: string, filters: unknown = full) => ph.createFlag({ key, filters });
  const limit = (name: string, value: number) => ph.serviceSetting(name, value);

  it(t("test_cannot_create_flag_when_team_exceeds_count_limit"), async () => {
    for (const key of ["flag-1", "flag-2", "flag-3"]) await createFlag(key);
    await limit("max_feature_flags_per_team", 3);
    const response = await ph.api("POST", FLAGS, { key: "flag-4", filters: full });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain("Maximum of 3 feature flags allowed per team");
  });

  it(t("test_cannot_create_flag_without_filters_when_team_exceeds_count_limit"), async () => {
    for (const key of ["flag-1", "flag-2", "flag-3"]) await createFlag(key);
    await limit("max_feature_flags_per_team", 3);
    const response = await ph.api("POST", FLAGS, { key: "flag-4" });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain("Maximum of 3 feature flags allowed per team");
  });

  it(t("test_can_update_existing_flag_when_team_at_count_limit"), async () => {
    const flag1 = await createFlag("flag-1");
    await createFlag("flag-2");
    await limit("max_feature_flags_per_team", 2);
    const response = await ph.api("PATCH", `${FLAGS}/${flag1.id}`, { name: "Updated description" });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe("Updated description");
  });

  it(t("test_deleted_flags_do_not_count_toward_limit"), async () => {
    const flag1 = await createFlag("flag-1");
    await createFlag("flag-2");
    await ph.save(flag1.id, { deleted: true });
    await limit("max_feature_flags_per_team", 2);
    const response = await ph.api("POST", FLAGS, { key: "flag-3", filters: full });
    expect(response.status).toBe(201);
  });

  const manyProperties = Array.from({ length: 50 }, (_, i) => ({
    key: `prop_${i}`,
    type: "person",
    value: `value_${i}`,
    operator: "exact",
  }));

  it(t("test_per_flag_filter_size_limit_on_create"), async () => {
    await limit("max_feature_flag_filter_size_bytes", 1024);
    const response = await ph.api("POST", FLAGS, {
      key: "large-flag",
      filters: { groups: [{ rollout_percentage: 100, properties: manyProperties }] },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain("exceed maximum size");
  });

  it(t("test_per_flag_filter_size_limit_on_update"), async () => {
    const flag = await createFlag("small-flag");
    await limit("max_feature_flag_filter_size_bytes", 1024);
    const response = await ph.api("PATCH", `${FLAGS}/${flag.id}`, {
      filters: { groups: [{ rollout_percentage: 100, properties: manyProperties }] },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain("exceed maximum size");
  });

  it(t("test_other_team_flags_do_not_count_toward_limit"), async () => {
    await ph.createFlags([
      { team_id: OTHER_TEAM, key: "other-1", filters: { groups: [] } },
      { team_id: OTHER_TEAM, key: "other-2", filters: { groups: [] } },
    ]);
    await createFlag("flag-1");
    await createFlag("flag-2");
    await limit("max_feature_flags_per_team", 3);
    const response = await ph.api("POST", FLAGS, { key: "flag-3", filters: full });
    expect(response.status).toBe(201);
  });

  notPorted(t("test_survey_creation_blocked_when_at_flag_limit"), "the surveys endpoint is not served");
  notPorted(
    t("test_web_experiment_creation_blocked_when_at_flag_limit"),
    "the web_experiments endpoint is not served",
  );
  notPorted(
    t("test_product_tour_creation_blocked_when_at_flag_limit"),
    "the product_tours endpoint is not served",
  );
});

describe("TestFeatureFlagVersions", () => {
  for (const name of [
    "test_get_version_1_after_update",
    "test_get_current_version",
    "test_version_not_found_returns_404",
    "test_version_zero_returns_404",
    "test_reconstruct_filters_change",
    "test_multiple_versions",
    "test_incomplete_history_returns_422",
  ]) {
    notPorted(t(name), VERSIONS);
  }
  for (const id of ["remote_configuration", "encrypted_payloads"]) {
    notPorted(t("test_unsupported_flag_returns_400", id), VERSIONS);
  }
});

describe("TestFeatureFlagTestEvaluation", () => {
  for (const name of [
    "test_test_evaluation_happy_path",
    "test_test_evaluation_with_person_id_uses_smallest_distinct_id",
    "test_test_evaluation_with_timestamp",
    "test_test_evaluation_distinct_id_person_id_conflict",
    "test_test_evaluation_person_id_not_found",
    "test_test_evaluation_personhog_rpc_failure_returns_503",
    "test_test_evaluation_distinct_id_without_person",
    "test_test_evaluation_missing_internal_token_error",
    "test_test_evaluation_historical_missing_conditions_502",
    "test_test_evaluation_current_missing_conditions_200",
    "test_test_evaluation_build_properties_failure",
    "test_test_evaluation_filters_person_properties",
    "test_test_evaluation_filters_feature_enrollment_property",
    "test_test_evaluation_unexpected_response_type",
    "test_test_evaluation_missing_distinct_id",
    "test_test_evaluation_invalid_timestamp",
    "test_test_evaluation_build_properties_value_error_no_leak",
    "test_test_evaluation_reconstruct_flag_value_error_no_leak",
  ]) {
    notPorted(t(name), TEST_EVALUATION);
  }
});

describe("TestFeatureFlagEvaluationReasons", () => {
  notPorted(t("test_evaluation_reasons_passes_runtime_all"), EVALUATION_REASONS);
  for (const id of ["all", "client", "server"]) {
    notPorted(t("test_evaluation_reasons_surfaces_flag_for_runtime", id), EVALUATION_REASONS);
  }
  for (const id of ["repeated_params", "mcp_json_array_string"]) {
    notPorted(t("test_evaluation_reasons_scopes_to_flag_keys", id), EVALUATION_REASONS);
  }
  for (const id of ["connection_error", "timeout", "ssl_error"]) {
    notPorted(
      t("test_evaluation_reasons_returns_503_when_flags_service_unreachable", id),
      EVALUATION_REASONS,
    );
  }
  for (const id of ["http_error", "malformed_json"]) {
    notPorted(t("test_evaluation_reasons_returns_502_for_non_retryable_failures", id), EVALUATION_REASONS);
  }
});
