/**
 * Ported from PostHog's products/feature_flags/backend/api/test/test_feature_flag.py, the second block
 * of its `TestFeatureFlag` class, in the file's order: from `test_remote_config_with_personal_api_key`
 * through `test_list_has_evaluation_contexts_filtering` (updates of encrypted payloads, the version
 * check, soft deletion and key reuse, archiving, list filters). PostHog revision: 00c79cbc.
 *
 * Not ported: the `remote_config` endpoint (not served), the activity log (not served), the
 * serializer's `_get_conflicting_changes` unit tests (no request), and the usage dashboard the service
 * creates for every new flag (removed from the newest service by PostHog #79288: its cases are skipped).
 * Assertions on PostHog's analytics events are left out where a case makes them, as noted there.
 */
import { describe, expect, it } from "vitest";
import { notModelled, notPorted } from "../harness.js";
import { FLAGS, FOREIGN_KEY, FOREIGN_TEAM, TEAM, usePostHogFlags } from "./flags-harness.js";

const FILE = "products/feature_flags/backend/api/test/test_feature_flag.py";
const ph = usePostHogFlags();
const t = (name: string, id?: string) => `${FILE}::${name}${id === undefined ? "" : `[${id}]`}`;
const patch = (id: number, body: unknown, key?: string) => ph.api("PATCH", `${FLAGS}/${id}/`, body, key);
const REDACTED = '"********* (encrypted)"';

const REMOTE_CONFIG =
  "the remote_config endpoint (SDK remote configuration, its throttles and usage counters) is not served";
const ACTIVITY =
  "the activity log endpoints (`/feature_flags/activity`, `/feature_flags/:id/activity`) are not served";
const USAGE_DASHBOARD =
  "usage dashboards (created for every new flag by this revision; PostHog #79288 removed them from the newest service) are not modelled";

describe(FILE, () => {
  for (const name of [
    "test_remote_config_with_personal_api_key",
    "test_remote_config_with_project_secret_api_key",
    "test_remote_config_with_psak",
    "test_remote_config_psak_wrong_scope_returns_403",
    "test_remote_config_psak_cross_team_returns_403",
    "test_remote_config_psak_increments_remote_config_bucket",
    "test_remote_config_throttles_project_secret_api_key_requests",
    "test_remote_config_team_throttle_caps_across_multiple_psaks",
    "test_remote_config_returns_response_even_if_shadow_raises",
  ]) {
    notPorted(t(name), REMOTE_CONFIG);
  }
  for (const id of ["project_secret_key", "personal_api_key", "psak"]) {
    notPorted(t("test_remote_config_encrypted_payload_auth_dependent", id), REMOTE_CONFIG);
  }
  for (const id of ["plaintext_payloads", "encrypted_payloads"]) {
    notPorted(t("test_remote_config_increments_remote_config_bucket_by_one_per_request", id), REMOTE_CONFIG);
  }
  for (const name of [
    "test_remote_config_does_not_count_when_flag_is_not_remote_config",
    "test_remote_config_does_not_count_session_authenticated_requests",
    "test_remote_config_with_secret_api_key_prevents_cross_team_access",
    "test_remote_config_with_numeric_id_scopes_to_project",
    "test_remote_config_with_string_key_scopes_to_project",
    "test_remote_config_returns_not_found_for_unknown_flag",
  ]) {
    notPorted(t(name), REMOTE_CONFIG);
  }

  /** `_create_encrypted_flag`: a remote configuration whose stored payload is already ciphertext. */
  const createEncryptedFlag = (stored = "original-encrypted-value") =>
    ph.createFlag({
      key: "my-encrypted-flag",
      name: "Encrypted Flag",
      active: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: stored } },
      is_remote_configuration: true,
      has_encrypted_payloads: true,
    });
  /** `get_decrypted_flag_payload(stored, should_decrypt=True)`: what a personal API key reads back. */
  const decrypted = async (id: number) => {
    const response = await ph.api("GET", `${FLAGS}/${id}/`);
    expect(response.status).toBe(200);
    return response.body.filters.payloads.true;
  };

  const preserving: Array<[string, unknown]> = [
    ["filters_omitted", { name: "Updated Name" }],
    [
      "payloads_omitted",
      { has_encrypted_payloads: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
    ],
    [
      "true_key_missing",
      {
        has_encrypted_payloads: true,
        filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: {} },
      },
    ],
    [
      "redacted_placeholder_echoed",
      {
        has_encrypted_payloads: true,
        filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: REDACTED } },
      },
    ],
  ];
  for (const [id, body] of preserving) {
    it(t("test_update_encrypted_flag_preserves_payload", id), async () => {
      const flag = await createEncryptedFlag();
      const response = await patch(flag.id, body);
      expect(response.status, response.text).toBe(200);
      const row = await ph.row(flag.id);
      expect(row.filters.payloads.true).toBe("original-encrypted-value");
      expect(row.has_encrypted_payloads).toBe(true);
    });
  }

  it(t("test_update_encrypted_flag_encrypts_fresh_plaintext_payload"), async () => {
    const flag = await createEncryptedFlag();
    const plaintext = '"new-secret-value"';
    const response = await patch(flag.id, {
      has_encrypted_payloads: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: plaintext } },
    });
    expect(response.status, response.text).toBe(200);
    const stored = (await ph.row(flag.id)).filters.payloads.true;
    expect(stored).not.toBe(plaintext);
    expect(stored).not.toBe("original-encrypted-value");
    expect(await decrypted(flag.id)).toBe(plaintext);
  });

  const nonStrings: Array<[string, unknown, string]> = [
    ["number", 42, "42"],
    ["boolean", true, "true"],
    ["null", null, "null"],
    ["array", [1, 2, 3], "[1, 2, 3]"],
    ["object", { key: "value" }, '{"key": "value"}'],
  ];
  for (const [id, raw, dumped] of nonStrings) {
    it(t("test_update_encrypted_flag_encrypts_non_string_payload", id), async () => {
      const flag = await createEncryptedFlag();
      const response = await patch(flag.id, {
        has_encrypted_payloads: true,
        filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: raw } },
      });
      expect(response.status, response.text).toBe(200);
      const stored = (await ph.row(flag.id)).filters.payloads.true;
      expect(stored).not.toBe(dumped); // json.dumps(raw_value)
      expect(JSON.parse(await decrypted(flag.id))).toEqual(raw);
    });
  }

  it(t("test_update_encrypted_flag_downgrade_clears_payload"), async () => {
    const flag = await createEncryptedFlag();
    const response = await patch(flag.id, {
      has_encrypted_payloads: false,
      is_remote_configuration: false,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: {} },
    });
    expect(response.status, response.text).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.has_encrypted_payloads).toBe(false);
    expect(row.is_remote_configuration).toBe(false);
    expect(row.filters.payloads).not.toHaveProperty("true");
  });

  it(t("test_update_encrypted_flag_partial_downgrade_clears_ciphertext"), async () => {
    const flag = await createEncryptedFlag();
    const response = await patch(flag.id, { has_encrypted_payloads: false, is_remote_configuration: false });
    expect(response.status, response.text).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.has_encrypted_payloads).toBe(false);
    expect(row.filters?.payloads ?? {}).not.toHaveProperty("true");
  });

  it(t("test_update_encrypted_flag_encrypts_when_boolean_omitted"), async () => {
    const flag = await createEncryptedFlag();
    const plaintext = '"another-secret"';
    const response = await patch(flag.id, {
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: plaintext } },
    });
    expect(response.status, response.text).toBe(200);
    const stored = (await ph.row(flag.id)).filters.payloads.true;
    expect(stored).not.toBe(plaintext);
    expect(await decrypted(flag.id)).toBe(plaintext);
  });

  it(t("test_update_encrypted_flag_rejects_enabling_without_payload"), async () => {
    const flag = await ph.createFlag({
      key: "my-flag",
      name: "Flag",
      active: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    const response = await patch(flag.id, {
      has_encrypted_payloads: true,
      is_remote_configuration: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: REDACTED } },
    });
    expect(response.status, response.text).toBe(400);
  });

  for (const name of [
    "test_get_conflicting_changes",
    "test_get_conflicting_changes_returns_empty_when_original_flag_is_none",
    "test_get_conflicting_changes_with_filter_changes",
  ]) {
    notPorted(t(name), "a unit test of the serializer's `_get_conflicting_changes` (no request)");
  }

  it(t("test_updating_feature_flag_treats_null_version_as_zero"), async () => {
    ph.clock.set("2021-08-25T22:09:14.252Z");
    const created = await ph.api("POST", `${FLAGS}/`, {
      name: "original name",
      key: "a-feature-flag-that-is-updated",
    });
    expect(created.status).toBe(201);
    const flagId = created.body.id;
    await ph.save(flagId, { version: null });
    ph.clock.tick(10 * 60_000);
    const response = await ph.api("PATCH", `${FLAGS}/${flagId}`, { name: "Updated name", version: 0 });
    expect(response.status).toBe(200);
    expect(response.body.version).toBe(1);
    const row = await ph.row(flagId);
    expect(row.version).toBe(1);
    expect(row.name).toBe("Updated name");
  });

  for (const name of [
    "test_updating_feature_flag_key",
    "test_updating_feature_flag_key_does_not_update_insight_with_changed_description",
    "test_updating_feature_flag_key_does_not_update_insight_with_changed_filter",
    "test_updating_feature_flag_key_does_not_update_insight_with_removed_filter",
  ]) {
    notModelled(t(name), USAGE_DASHBOARD);
  }

  it(t("test_hard_deleting_feature_flag_is_forbidden"), async () => {
    const newUser = await ph.createUser({ email: "new_annotations@posthog.com" });
    const instance = await ph.createFlag({ key: "potato" });
    const response = await ph.api("DELETE", `${FLAGS}/${instance.id}/`, undefined, newUser.key);
    expect(response.status).toBe(405);
    expect(await ph.row(instance.id)).toBeDefined();
  });

  for (const name of [
    "test_get_feature_flag_activity",
    "test_get_feature_flag_activity_for_all_flags",
    "test_length_of_feature_flag_activity_does_not_change_number_of_db_queries",
    "test_get_feature_flag_activity_only_from_own_team",
    "test_paging_all_feature_flag_activity",
    "test_paging_specific_feature_flag_activity",
  ]) {
    notPorted(t(name), ACTIVITY);
  }

  it(t("test_get_flags_with_specified_token"), async () => {
    // `User.objects.bootstrap(...)`: a user of another organization, whose current team is its own.
    const own = (await ph.project(FOREIGN_TEAM)).api_token;
    const selfTeam = (await ph.project(TEAM)).api_token;
    const current = await ph.api("GET", "/api/projects/@current/feature_flags", undefined, FOREIGN_KEY);
    const ownToken = await ph.api(
      "GET",
      `/api/projects/@current/feature_flags?token=${own}`,
      undefined,
      FOREIGN_KEY,
    );
    const otherToken = await ph.api(
      "GET",
      `/api/projects/@current/feature_flags?token=${selfTeam}`,
      undefined,
      FOREIGN_KEY,
    );
    expect(current.body).toEqual(ownToken.body);
    expect(current.body).not.toEqual(otherToken.body);
    const invalid = await ph.api(
      "GET",
      "/api/projects/@current/feature_flags?token=invalid",
      undefined,
      FOREIGN_KEY,
    );
    expect(invalid.status).toBe(401);
  });

  it(t("test_soft_delete_flag_renames_key_and_allows_reuse"), async () => {
    const flag = await ph.createFlag({ key: "flag1" });
    await ph.createExperiment({ feature_flag: flag.id, deleted: true });
    const response = await patch(flag.id, { deleted: true });
    expect(response.status).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(true);
    expect(row.key).toBe(`flag1:deleted:${flag.id}`);
    const created = await ph.api("POST", `${FLAGS}/`, { name: "Flag1", key: "flag1" });
    expect(created.status).toBe(201);
    expect(created.body.key).toBe("flag1");
  });

  it(t("test_soft_delete_can_be_reversed_by_patch"), async () => {
    const flag = await ph.createFlag({ key: "undo-flag" });
    expect((await patch(flag.id, { deleted: true })).status).toBe(200);
    expect((await ph.row(flag.id)).deleted).toBe(true);
    expect((await patch(flag.id, { deleted: false })).status).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(false);
    expect(row.key).toBe("undo-flag");
  });

  it(t("test_soft_delete_undo_restores_renamed_key"), async () => {
    const flag = await ph.createFlag({ key: "renamed-flag" });
    await ph.createExperiment({ feature_flag: flag.id, deleted: true });
    expect((await patch(flag.id, { deleted: true })).status).toBe(200);
    expect((await ph.row(flag.id)).key).toBe(`renamed-flag:deleted:${flag.id}`);
    expect((await patch(flag.id, { deleted: false })).status).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(false);
    expect(row.key).toBe("renamed-flag");
  });

  it(t("test_soft_delete_undo_suffixes_key_when_original_is_taken"), async () => {
    const flag = await ph.createFlag({ key: "taken-flag" });
    await ph.createExperiment({ feature_flag: flag.id, deleted: true });
    expect((await patch(flag.id, { deleted: true })).status).toBe(200);
    expect((await ph.row(flag.id)).key).toBe(`taken-flag:deleted:${flag.id}`);
    await ph.createFlag({ key: "taken-flag" });
    expect((await patch(flag.id, { deleted: false })).status).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(false);
    expect(row.key).toBe("taken-flag-2");
  });

  it(t("test_soft_delete_undo_suffixes_key_when_original_held_by_soft_deleted_flag"), async () => {
    const flag = await ph.createFlag({ key: "held-flag" });
    await ph.createExperiment({ feature_flag: flag.id, deleted: true });
    expect((await patch(flag.id, { deleted: true })).status).toBe(200);
    expect((await ph.row(flag.id)).key).toBe(`held-flag:deleted:${flag.id}`);
    const blocker = await ph.createFlag({ key: "held-flag" });
    await ph.save(blocker.id, { deleted: true });
    expect((await patch(flag.id, { deleted: false })).status).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.deleted).toBe(false);
    expect(row.key).toBe("held-flag-2");
  });

  it(t("test_rename_flag_to_key_held_by_soft_deleted_flag"), async () => {
    const [first, other] = await ph.createFlags([
      { key: "56397-delete-flag" },
      { key: "56397-delete-flag-v2" },
    ]);
    expect((await patch(first.id, { deleted: true })).status).toBe(200);
    const response = await patch(other.id, { key: "56397-delete-flag" });
    expect(response.status, response.text).toBe(200);
    expect((await ph.row(other.id)).key).toBe("56397-delete-flag");
    const held = (await ph.flags()).filter((f) => f.key === "56397-delete-flag" && f.deleted);
    expect(held).toEqual([]);
  });

  it(t("test_soft_delete_flag_blocked_with_running_experiment"), async () => {
    const flag = await ph.createFlag({ key: "flag2" });
    const exp = await ph.createExperiment({
      feature_flag: flag.id,
      name: "My experiment",
      start_date: ph.daysAgo(0),
    });
    const response = await patch(flag.id, { deleted: true });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe(
      `Cannot delete a feature flag that is linked to running experiment(s): "My experiment" (ID: ${exp.id}). Please stop the experiment(s) before deleting the flag.`,
    );
  });

  for (const [id, started] of [
    ["draft", false],
    ["stopped", true],
  ] as const) {
    it(t("test_soft_delete_flag_allowed_with_non_running_experiment", id), async () => {
      const flag = await ph.createFlag({ key: `${id}-exp-flag` });
      const now = ph.daysAgo(0);
      await ph.createExperiment({
        feature_flag: flag.id,
        start_date: started ? now : null,
        end_date: started ? now : null,
      });
      const response = await patch(flag.id, { deleted: true });
      expect(response.status, response.text).toBe(200);
      const row = await ph.row(flag.id);
      expect(row.deleted).toBe(true);
      expect(row.key).toBe(`${id}-exp-flag:deleted:${flag.id}`);
    });
  }

  it(t("test_soft_delete_flag_blocked_when_used_in_replay_settings"), async () => {
    const flag = await ph.createFlag({ key: "replay-flag" });
    await ph.teamSettings({ session_recording_linked_flag: { id: flag.id, key: flag.key } });
    const response = await patch(flag.id, { deleted: true });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe(
      "This feature flag is used in session replay settings. Please remove it from replay settings before deleting.",
    );
  });

  it(t("test_is_used_in_replay_settings_serializer_field"), async () => {
    const flag = await ph.createFlag({ key: "replay-flag" });
    let response = await ph.api("GET", `${FLAGS}/${flag.id}/`);
    expect(response.status).toBe(200);
    expect(response.body.is_used_in_replay_settings).toBe(false);
    await ph.teamSettings({ session_recording_linked_flag: { id: flag.id, key: flag.key } });
    response = await ph.api("GET", `${FLAGS}/${flag.id}/`);
    expect(response.status).toBe(200);
    expect(response.body.is_used_in_replay_settings).toBe(true);
  });

  it(t("test_archive_flag_requires_disabled"), async () => {
    const flag = await ph.createFlag({ key: "enabled-flag", active: true });
    const response = await patch(flag.id, { archived: true });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain("Cannot archive an enabled feature flag");
    expect((await ph.row(flag.id)).archived).toBe(false);
  });

  it(t("test_archive_disabled_flag"), async () => {
    const flag = await ph.createFlag({ key: "disabled-flag", active: false });
    const response = await patch(flag.id, { archived: true });
    expect(response.status, response.text).toBe(200);
    expect(response.body.archived).toBe(true);
    expect(response.body.status).toBe("ARCHIVED");
    expect((await ph.row(flag.id)).archived).toBe(true);
  });

  it(t("test_archive_and_disable_flag_in_one_request"), async () => {
    const flag = await ph.createFlag({ key: "enabled-flag", active: true });
    const response = await patch(flag.id, { archived: true, active: false });
    expect(response.status, response.text).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.archived).toBe(true);
    expect(row.active).toBe(false);
  });

  it(t("test_cannot_enable_archived_flag"), async () => {
    const flag = await ph.createFlag({ key: "archived-flag", active: false, archived: true });
    const response = await patch(flag.id, { active: true });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe("Cannot enable an archived feature flag. Unarchive it first.");
  });

  it(t("test_unarchive_flag_stays_disabled"), async () => {
    const flag = await ph.createFlag({ key: "archived-flag", active: false, archived: true });
    const response = await patch(flag.id, { archived: false });
    expect(response.status, response.text).toBe(200);
    const row = await ph.row(flag.id);
    expect(row.archived).toBe(false);
    expect(row.active).toBe(false);
  });

  for (const [id, query, visible, archived] of [
    ["default", "", true, false],
    ["archived_true", "?archived=true", false, true],
    ["archived_false", "?archived=false", true, false],
  ] as const) {
    it(t("test_list_archived_filtering", id), async () => {
      await ph.createFlags([
        { key: "visible-flag" },
        { key: "archived-flag", active: false, archived: true },
      ]);
      const response = await ph.api("GET", `${FLAGS}/${query}`);
      expect(response.status).toBe(200);
      const keys = new Set(response.body.results.map((f: { key: string }) => f.key));
      expect(keys.has("visible-flag")).toBe(visible);
      expect(keys.has("archived-flag")).toBe(archived);
    });
  }

  it(t("test_list_excluded_tags_filtering"), async () => {
    for (const [key, tags] of [
      ["deprecated-flag", ["deprecated"]],
      ["multi-tag-flag", ["deprecated", "app"]],
      ["app-flag", ["app"]],
      ["untagged-flag", []],
    ] as const) {
      const response = await ph.api("POST", `${FLAGS}/`, {
        key,
        filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
        tags,
      });
      expect(response.status, response.text).toBe(201);
    }
    const response = await ph.api(
      "GET",
      `${FLAGS}/?excluded_tags=${encodeURIComponent(JSON.stringify(["deprecated"]))}`,
    );
    expect(response.status).toBe(200);
    const keys = new Set(response.body.results.map((f: { key: string }) => f.key));
    expect(keys.has("deprecated-flag")).toBe(false);
    expect(keys.has("multi-tag-flag")).toBe(false);
    expect(keys.has("app-flag") && keys.has("untagged-flag")).toBe(true);
  });

  for (const [id, query, expected] of [
    ["filtered", "?eligible_for_experiment=true", ["control-second-flag", "eligible-flag"]],
    ["unfiltered", "", ["control-second-flag", "eligible-flag", "single-variant-flag"]],
  ] as const) {
    it(t("test_list_eligible_for_experiment_filtering", id), async () => {
      const variants = (keys: string[], rollout: number) =>
        keys.map((key) => ({
          key,
          name: key.charAt(0).toUpperCase() + key.slice(1),
          rollout_percentage: rollout,
        }));
      await ph.createFlags(
        [
          ["eligible-flag", variants(["control", "test"], 50)],
          ["control-second-flag", variants(["test", "control"], 50)],
          ["single-variant-flag", variants(["control"], 100)],
        ].map(([key, list]) => ({
          key,
          filters: {
            groups: [{ properties: [], rollout_percentage: 100 }],
            multivariate: { variants: list },
          },
        })),
      );
      const response = await ph.api("GET", `${FLAGS}/${query}`);
      expect(response.status).toBe(200);
      const keys = response.body.results.map((f: { key: string }) => f.key).sort();
      expect(keys).toEqual([...expected]);
    });
  }

  for (const [id, value, expected] of [
    ["with_contexts", "true", "flag-with-contexts"],
    ["without_contexts", "false", "flag-without-contexts"],
  ] as const) {
    it(t("test_list_has_evaluation_contexts_filtering", id), async () => {
      await ph.createFlags([
        { key: "flag-with-contexts", evaluation_contexts: ["app"] },
        { key: "flag-without-contexts" },
      ]);
      const response = await ph.api("GET", `${FLAGS}/?has_evaluation_contexts=${value}`);
      expect(response.status).toBe(200);
      const keys = response.body.results.map((f: { key: string }) => f.key);
      expect(keys).toEqual([expected]);
    });
  }
});
