/**
 * Ported from PostHog's products/approvals/backend/tests/test_create_feature_flag_gate.py, class
 * TestCreateFlagGateAPI: creating a flag that lands in a state an approval policy guards answers 409
 * and creates nothing until the change request is approved. PostHog approves through its
 * `ChangeRequestService`; the port approves through the API (`POST .../change_requests/{id}/approve/`),
 * whose permission check needs the policy to allow the requester to approve their own change, so the
 * ported policies say so. The file's other class, TestCreateDetection, calls the action classes'
 * `detect` / `extract_intent` directly with mocked views: unit tests of PostHog's internals, not of the
 * API, and not ported.
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import { FLAGS, TEAM, usePostHogFlags } from "../feature_flags/flags-harness.js";
import { notPorted } from "../harness.js";

const FILE = "products/approvals/backend/tests/test_create_feature_flag_gate.py";
const ph = usePostHogFlags();
const t = (name: string) => `${FILE}::TestCreateFlagGateAPI::${name}`;

const enablePolicy = () =>
  ph.createPolicy({
    action_key: "feature_flag.enable",
    conditions: {},
    approver_config: { quorum: 1, users: [1] },
    allow_self_approve: true,
  });

const updatePolicy = (conditions: Record<string, unknown> = {}) =>
  ph.createPolicy({
    action_key: "feature_flag.update",
    conditions,
    approver_config: { quorum: 1, users: [1] },
    allow_self_approve: true,
  });

const ROLLOUT_ABOVE_ZERO = { type: "before_after", field: "rollout_percentage", operator: ">", value: 0 };

// biome-ignore lint/suspicious/noExplicitAny: flag bodies are read freely, like PostHog's response.json()
async function liveFlags(key: string): Promise<any[]> {
  const state = await ph.api("GET", `${FLAGS}/?key=${key}`);
  return state.body.results;
}

const approve = (id: string) => ph.api("POST", `/api/projects/${TEAM}/change_requests/${id}/approve/`, {});

describe(FILE, () => {
  it(t("test_create_active_flag_under_enable_policy_requires_approval"), async () => {
    await enablePolicy();
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "born-active",
      active: true,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("approval_required");
    expect(await liveFlags("born-active")).toEqual([]);
  });

  it(t("test_create_flag_without_active_under_enable_policy_requires_approval"), async () => {
    await enablePolicy();
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "born-active-implicit",
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("approval_required");
    expect(await liveFlags("born-active-implicit")).toEqual([]);
  });

  it(t("test_create_disabled_flag_under_enable_policy_succeeds"), async () => {
    await enablePolicy();
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "born-disabled",
      active: false,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(201);
    const flags = await liveFlags("born-disabled");
    expect(flags.map((f) => f.active)).toEqual([false]);
  });

  it(t("test_create_active_flag_without_policy_succeeds"), async () => {
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "no-policy",
      active: true,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(201);
    expect((await liveFlags("no-policy")).map((f) => f.active)).toEqual([true]);
  });

  it(t("test_approve_create_change_request_creates_flag_once"), async () => {
    await enablePolicy();
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "born-active",
      active: true,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(409);
    const crId = response.body.change_request_id;
    const cr = (await ph.changeRequests()).find((c) => c.id === crId);
    expect(cr?.resource_id).toBeNull();
    const result = await approve(crId);
    expect(result.body.status).toBe("applied");
    const flags = await liveFlags("born-active");
    expect(flags).toHaveLength(1);
    expect(flags[0].active).toBe(true);
    expect(flags[0].filters.groups[0].rollout_percentage).toBe(100);
  });

  it(t("test_create_rollout_gated_flag_requires_approval_then_applies"), async () => {
    await updatePolicy(ROLLOUT_ABOVE_ZERO);
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "rollout-gated",
      active: false,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(409);
    expect(await liveFlags("rollout-gated")).toEqual([]);
    await approve(response.body.change_request_id);
    const [flag] = await liveFlags("rollout-gated");
    expect(flag.filters.groups[0].rollout_percentage).toBe(100);
  });

  it(t("test_create_active_flag_with_rollout_under_both_policies_is_rejected"), async () => {
    await enablePolicy();
    await updatePolicy(ROLLOUT_ABOVE_ZERO);
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "born-active-rollout",
      active: true,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("policy_conflict");
    expect(await liveFlags("born-active-rollout")).toEqual([]);
    expect(await ph.changeRequests()).toHaveLength(0);
  });

  it(t("test_create_remote_config_flag_without_filters_requires_rollout_approval"), async () => {
    await updatePolicy(ROLLOUT_ABOVE_ZERO);
    const response = await ph.api("POST", `${FLAGS}/`, {
      key: "remote-config-flag",
      active: false,
      is_remote_configuration: true,
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("approval_required");
    expect(await liveFlags("remote-config-flag")).toEqual([]);
    await approve(response.body.change_request_id);
    const [flag] = await liveFlags("remote-config-flag");
    expect(flag.filters.groups[0].rollout_percentage).toBe(100);
  });

  notPorted(
    t("test_reapplying_create_change_request_does_not_duplicate"),
    "re-applies an applied change request through PostHog's internal apply_change_request, which the API does not offer",
  );
});
