/**
 * Ported from PostHog's products/feature_flags/backend/api/test/test_feature_flag_lifecycle_actions.py:
 * the `enable` / `disable` / `archive` / `unarchive` actions against the emulator. Parametrised cases
 * keep PostHog's case names in brackets. `ActivityLog` rows are the emulator's activity log (state,
 * `activity_log`); left out of a case: the flags cache (no request observes it); a session is one the
 * emulator opens (`inSession`).
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import { notPorted } from "../harness.js";
import { FLAGS, usePostHogFlags } from "./flags-harness.js";

const FILE = "products/feature_flags/backend/api/test/test_feature_flag_lifecycle_actions.py";
const ph = usePostHogFlags();

const TARGETING = {
  groups: [
    {
      properties: [{ key: "email", type: "person", value: "@example.com", operator: "icontains" }],
      rollout_percentage: 37,
      variant: "control",
    },
    { properties: [], rollout_percentage: 5 },
  ],
  multivariate: {
    variants: [
      { key: "control", rollout_percentage: 60 },
      { key: "test", rollout_percentage: 40 },
    ],
  },
  payloads: { control: '{"copy": "a"}' },
};

// (case, starting active, starting archived, resulting active, resulting archived)
const STATE_CASES: Array<[string, boolean, boolean, boolean, boolean]> = [
  ["enable", false, false, true, false],
  ["disable", true, false, false, false],
  ["archive_enabled", true, false, false, true],
  ["archive_disabled", false, false, false, true],
  ["unarchive", false, true, false, false],
];

const flag = (opts: { key?: string; active?: boolean; archived?: boolean; filters?: unknown } = {}) =>
  ph.createFlag({
    key: opts.key ?? "lifecycle-flag",
    name: "lifecycle flag",
    active: opts.active ?? true,
    archived: opts.archived ?? false,
    filters: opts.filters ?? TARGETING,
  });

const act = (id: number, action: string, body: unknown = {}, key?: string) =>
  ph.api("POST", `${FLAGS}/${id}/${action}/`, body, key);

const dependentOf = (target: { id: number }, key = "dependent-flag", active = true) =>
  ph.createFlag({
    key,
    active,
    filters: {
      groups: [
        {
          properties: [
            { key: String(target.id), type: "flag", value: "true", operator: "flag_evaluates_to" },
          ],
          rollout_percentage: 100,
        },
      ],
    },
  });

describe(FILE, () => {
  for (const [name, active, archived, expectedActive, expectedArchived] of STATE_CASES) {
    it(`${FILE}::test_action_changes_only_the_state_fields[${name}]`, async () => {
      const f = await flag({ active, archived });
      const response = await act(f.id, name.split("_")[0] as string);
      expect(response.status).toBe(200);
      expect(response.body.active).toBe(expectedActive);
      expect(response.body.archived).toBe(expectedArchived);
      const row = await ph.row(f.id);
      expect(row.active).toBe(expectedActive);
      expect(row.archived).toBe(expectedArchived);
      expect(row.filters).toEqual(TARGETING);
      expect(row.key).toBe("lifecycle-flag");
      expect(row.name).toBe("lifecycle flag");
    });

    it(`${FILE}::test_action_ignores_a_caller_supplied_body[${name}]`, async () => {
      const f = await flag({ active, archived });
      const response = await act(f.id, name.split("_")[0] as string, {
        filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
        key: "hijacked",
        active: !expectedActive,
        archived: !expectedArchived,
        version: 999,
        original_flag: { active: expectedActive, archived: expectedArchived },
      });
      expect(response.status).toBe(200);
      const row = await ph.row(f.id);
      expect(row.filters).toEqual(TARGETING);
      expect(row.key).toBe("lifecycle-flag");
      expect(row.active).toBe(expectedActive);
      expect(row.archived).toBe(expectedArchived);
    });

    it(`${FILE}::test_repeating_an_action_writes_nothing[${name}]`, async () => {
      const f = await flag({ active, archived });
      const action = name.split("_")[0] as string;
      const first = await act(f.id, action);
      expect(first.status).toBe(200);
      const second = await act(f.id, action);
      expect(second.status).toBe(200);
      expect(second.body.version).toBe(first.body.version);
      const updated = (await ph.activity()).filter(
        (a) => a.scope === "FeatureFlag" && a.item_id === String(f.id) && a.activity === "updated",
      );
      expect(updated).toHaveLength(1);
    });
  }

  it(`${FILE}::test_enable_refuses_an_archived_flag`, async () => {
    const f = await flag({ active: false, archived: true });
    const response = await act(f.id, "enable");
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe("Cannot enable an archived feature flag. Unarchive it first.");
    expect((await ph.row(f.id)).active).toBe(false);
  });

  for (const action of ["disable", "archive"]) {
    it(`${FILE}::test_action_refuses_a_flag_other_active_flags_depend_on[${action}]`, async () => {
      const f = await flag({ active: true });
      const dependent = await dependentOf(f);
      const response = await act(f.id, action);
      expect(response.status).toBe(400);
      expect(response.body.detail).toContain(
        "Cannot disable this feature flag because other flags depend on it",
      );
      expect(response.body.detail).toContain(`${dependent.key} (ID: ${dependent.id})`);
      const row = await ph.row(f.id);
      expect(row.active).toBe(true);
      expect(row.archived).toBe(false);
    });
  }

  it(`${FILE}::test_enable_refuses_a_flag_whose_dependency_is_disabled`, async () => {
    const dependency = await flag({ key: "dependency-flag", active: false, filters: { groups: [] } });
    const f = await dependentOf(dependency, "depends-on-disabled", false);
    const response = await act(f.id, "enable");
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain("depends on disabled flags");
    expect((await ph.row(f.id)).active).toBe(false);
  });

  notPorted(
    `${FILE}::test_action_records_the_state_change_in_the_activity_log`,
    "reads the activity log (`.../activity/`), an endpoint the emulator does not serve",
  );

  notPorted(
    `${FILE}::test_action_invalidates_the_flags_cache`,
    "reads PostHog's flags cache, which the API does not show",
  );

  for (const [action, active, archived] of [
    ["enable", false, false],
    ["disable", true, false],
    ["archive", true, false],
    ["unarchive", false, true],
  ] as const) {
    it(`${FILE}::test_action_works_when_the_team_requires_evaluation_contexts[${action}]`, async () => {
      await ph.teamSettings({ require_evaluation_contexts: true });
      const f = await flag({ active, archived });
      await ph.serviceFlag("flag-evaluation-tags", true);
      const response = await act(f.id, action);
      expect(response.status).toBe(200);
    });
  }

  it(`${FILE}::test_encrypted_payload_is_never_returned_as_ciphertext[session]`, async () => {
    // The ciphertext is made the way the service makes it: an encrypted flag written through the API.
    const created = await ph.api("POST", `${FLAGS}/`, {
      key: "lifecycle-flag",
      active: false,
      is_remote_configuration: true,
      has_encrypted_payloads: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '"secret"' } },
    });
    expect(created.status).toBe(201);
    const ciphertext = (await ph.row(created.body.id)).filters.payloads.true;
    // APIBaseTest's client is logged in with a session: anything but a personal API key gets the
    // placeholder.
    const response = await ph.inSession(1, "POST", `${FLAGS}/${created.body.id}/enable/`, {});
    expect(response.status, response.text).toBe(200);
    // REDACTED_PAYLOAD_VALUE, a JSON-encoded string like every stored payload.
    expect(response.body.filters.payloads.true).toBe('"********* (encrypted)"');
    expect((await ph.row(created.body.id)).filters.payloads.true).toBe(ciphertext);
  });

  it(`${FILE}::test_encrypted_payload_is_never_returned_as_ciphertext[personal_api_key]`, async () => {
    // The ciphertext is made the way the service makes it: an encrypted flag written through the API.
    const created = await ph.api("POST", `${FLAGS}/`, {
      key: "lifecycle-flag",
      active: false,
      is_remote_configuration: true,
      has_encrypted_payloads: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '"secret"' } },
    });
    expect(created.status).toBe(201);
    const ciphertext = (await ph.row(created.body.id)).filters.payloads.true;
    expect(ciphertext).not.toBe('"secret"');
    const key = await ph.keyWithScopes(["*"]);
    const response = await act(created.body.id, "enable", {}, key);
    expect(response.status).toBe(200);
    expect(response.body.filters.payloads.true).toBe('"secret"');
    expect((await ph.row(created.body.id)).filters.payloads.true).toBe(ciphertext);
  });

  it(`${FILE}::test_write_scoped_key_can_change_state`, async () => {
    const f = await flag({ active: false });
    const key = await ph.keyWithScopes(["feature_flag:write"]);
    const response = await act(f.id, "enable", {}, key);
    expect(response.status).toBe(200);
    expect((await ph.row(f.id)).active).toBe(true);
  });

  for (const action of ["enable", "disable", "archive", "unarchive"]) {
    it(`${FILE}::test_action_requires_the_feature_flag_write_scope[${action}]`, async () => {
      const f = await flag({ active: false, archived: false });
      const key = await ph.keyWithScopes(["feature_flag:read"]);
      const response = await act(f.id, action, {}, key);
      expect(response.status).toBe(403);
      const row = await ph.row(f.id);
      expect(row.active).toBe(false);
      expect(row.archived).toBe(false);
    });
  }
});
