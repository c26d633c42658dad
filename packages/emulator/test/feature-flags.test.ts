/**
 * The emulator's feature-flag and cohort routes (reference §10), beyond what PostHog's own tests in
 * test/emulator/posthog/ cover: the list's filters, the server's rewrites a declarative tool must
 * normalise, encrypted payloads, evaluation contexts, approvals seen from outside, key reuse and the
 * default seed's flags dated from the clock.
 */
import { describe, expect, it } from "vitest";
import { ACME_ID, BOB_KEY, FLAG_IDS, SAMPLE_ENCRYPTED_PAYLOAD } from "../src/default-seed.js";
import { type Json, P, type PartialState, useEmulator } from "./support/harness.js";

const h = useEmulator();
const FLAGS = `${P}/feature_flags`;
const DAY = 86_400_000;

const keys = (body: Json) => body.results.map((f: Json) => f.key);

describe("feature flags: list", () => {
  it("leaves out deleted and archived flags, newest first, unless ?archived= asks", async () => {
    const list = await h.api("GET", `${FLAGS}/`);
    expect(list.status).toBe(200);
    expect(keys(list.body)).toEqual([
      "holiday-promo",
      "pricing-page-test",
      "pricing-config",
      "new-checkout",
      "checkout-v1",
    ]);
    const archived = await h.api("GET", `${FLAGS}/?archived=true`);
    expect(keys(archived.body)).toEqual(["old-banner"]);
    const notArchived = await h.api("GET", `${FLAGS}/?archived=false`);
    expect(notArchived.body.count).toBe(5);
  });

  it("filters ?key= exactly and case-insensitively, and searches key, description and experiment names", async () => {
    expect(keys((await h.api("GET", `${FLAGS}/?key=NEW-Checkout`)).body)).toEqual(["new-checkout"]);
    expect((await h.api("GET", `${FLAGS}/?key=new-check`)).body.count).toBe(0);
    expect(keys((await h.api("GET", `${FLAGS}/?search=checkout%20flow`)).body)).toEqual(["new-checkout"]);
    expect(keys((await h.api("GET", `${FLAGS}/?search=pricing`)).body)).toEqual([
      "pricing-page-test",
      "pricing-config",
    ]);
    // The term in any case, its other characters literal (`re.escape`), in the key or the description.
    expect(keys((await h.api("GET", `${FLAGS}/?search=CHECKOUT-V`)).body)).toEqual(["checkout-v1"]);
    expect((await h.api("GET", `${FLAGS}/?search=new%20checkout%20flow%20x`)).body.count).toBe(0);
    // A space stands for any run of spaces, hyphens and underscores: "page test" finds pricing-page-test.
    expect(keys((await h.api("GET", `${FLAGS}/?search=page%20test`)).body)).toEqual(["pricing-page-test"]);
    expect(keys((await h.api("GET", `${FLAGS}/?search=.*`)).body)).toEqual([]);
    const long = await h.api("GET", `${FLAGS}/?search=${"x".repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.detail).toBe("Search term cannot exceed 200 characters");
  });

  it("pages with limit/offset and counts a project's flags only", async () => {
    const first = await h.api("GET", `${FLAGS}/?limit=2`);
    expect(first.body.count).toBe(5);
    expect(first.body.results).toHaveLength(2);
    expect(first.body.next).toContain("offset=2");
    const staging = await h.api("GET", "/api/projects/12346/feature_flags/");
    expect(keys(staging.body)).toEqual(["checkout-v1"]);
    expect(staging.body.results[0].id).toBe(FLAG_IDS.stagingCheckoutV1);
  });

  it("needs feature_flag:read, and a soft-deleted flag stays readable by id", async () => {
    await h.reseed<PartialState>((s) =>
      s.api_keys?.push({ key: "phx_dash", user: 1, scopes: ["dashboard:read"] }),
    );
    expect((await h.api("GET", `${FLAGS}/`, undefined, { key: "phx_dash" })).status).toBe(403);
    const deleted = await h.api("GET", `${FLAGS}/${FLAG_IDS.legacyOnboarding}/`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    const remove = await h.api("DELETE", `${FLAGS}/${FLAG_IDS.checkoutV1}/`);
    expect(remove.status).toBe(405);
    expect(remove.text).toBe("");
  });
});

describe("feature flags: the server's rewrites", () => {
  it("copies the aggregation into every group, JSON-encodes payloads like Python, aliases min/max", async () => {
    const created = await h.api("POST", `${FLAGS}/`, {
      key: "rewrites",
      filters: {
        groups: [
          {
            properties: [{ key: "age", type: "person", operator: "min", value: "18" }],
            rollout_percentage: 30,
          },
        ],
        multivariate: { variants: [{ key: "a", rollout_percentage: 100 }] },
        payloads: { a: { colour: "blue", list: [1, "ü"] } },
      },
    });
    expect(created.status).toBe(201);
    const filters = created.body.filters;
    expect(filters.aggregation_group_type_index).toBeNull();
    expect(filters.groups[0].aggregation_group_type_index).toBeNull();
    expect(filters.groups[0].properties[0].operator).toBe("gte");
    expect(filters.payloads.a).toBe('{"colour": "blue", "list": [1, "\\u00fc"]}');
    const grouped = await h.api("POST", `${FLAGS}/`, {
      key: "grouped",
      filters: { aggregation_group_type_index: 0, groups: [{ rollout_percentage: 5 }] },
    });
    expect(grouped.body.filters.groups[0].aggregation_group_type_index).toBe(0);
  });

  it("adds cohort_name on read, from the cohort the property names by id", async () => {
    const flag = await h.api("GET", `${FLAGS}/${FLAG_IDS.newCheckout}/`);
    const cohort = flag.body.filters.groups[0].properties.find((p: Json) => p.type === "cohort");
    expect(cohort).toEqual({
      key: "id",
      type: "cohort",
      operator: "in",
      value: 1,
      cohort_name: "Beta testers",
    });
    const state = await h.state();
    const stored = state.feature_flags.find((f: Json) => f.id === FLAG_IDS.newCheckout);
    expect(JSON.stringify(stored.filters)).not.toContain("cohort_name");
  });

  it("merges a PATCH's filters at the top level and bumps the version on every write", async () => {
    const before = (await h.api("GET", `${FLAGS}/${FLAG_IDS.newCheckout}/`)).body;
    const patched = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.newCheckout}/`, {
      filters: { groups: [{ properties: [], rollout_percentage: 60 }] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.version).toBe(before.version + 1);
    expect(patched.body.filters.multivariate).toEqual(before.filters.multivariate);
    expect(patched.body.filters.payloads).toEqual(before.filters.payloads);
    expect(patched.body.filters.groups).toHaveLength(1);
    const noop = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.newCheckout}/`, { filters: {} });
    expect(noop.body.filters).toEqual(patched.body.filters);
    expect(noop.body.version).toBe(before.version + 2);
  });

  it("under the older service, ignores filters without groups and stores filters with groups whole", async () => {
    // Before PostHog #74761 (products/feature_flags/backend/api/feature_flag.py, `validate_filters`):
    // a PATCH without `groups` got the stored filters back, one with `groups` replaced them.
    await h.reseed<Json>((s) => {
      s.service.flag_filters_patch = "replace";
    });
    const url = `${FLAGS}/${FLAG_IDS.newCheckout}/`;
    const before = (await h.api("GET", url)).body;
    const ignored = await h.api("PATCH", url, { filters: { multivariate: null, payloads: {} } });
    expect(ignored.status).toBe(200);
    expect(ignored.body.filters).toEqual(before.filters);
    expect(ignored.body.version).toBe(before.version + 1);
    const replaced = await h.api("PATCH", url, {
      filters: { groups: [{ properties: [], rollout_percentage: 60 }] },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.filters).toEqual({
      groups: [{ properties: [], rollout_percentage: 60, aggregation_group_type_index: null }],
      aggregation_group_type_index: null,
    });
    const state = await h.state();
    const stored = state.feature_flags.find((f: Json) => f.id === FLAG_IDS.newCheckout);
    expect(stored.filters).not.toHaveProperty("multivariate");
    expect(stored.filters).not.toHaveProperty("payloads");
  });

  it("under the older service, keeps an encrypted payload that filters with groups leave out or redact", async () => {
    await h.reseed<Json>((s) => {
      s.service.flag_filters_patch = "replace";
    });
    const url = `${FLAGS}/${FLAG_IDS.pricingConfig}/`;
    for (const payloads of [undefined, {}, { true: '"********* (encrypted)"' }]) {
      const filters = { groups: [{ rollout_percentage: 40 }], ...(payloads ? { payloads } : {}) };
      const patched = await h.api("PATCH", url, { filters });
      expect(patched.status, JSON.stringify(payloads)).toBe(200);
      expect(patched.body.filters.payloads).toEqual({ true: SAMPLE_ENCRYPTED_PAYLOAD });
    }
    // An empty text is no JSON: refused before the update could keep anything, as the service does.
    const empty = await h.api("PATCH", url, { filters: { groups: [], payloads: { true: "" } } });
    expect(empty.status).toBe(400);
    // Filters without groups: the update takes the stored ciphertext for a new payload and encrypts
    // it again, so the flag no longer serves its payload (why a tool must always send `groups`).
    const broken = await h.api("PATCH", url, { filters: { payloads: { true: '"new"' } } });
    expect(broken.status).toBe(200);
    expect(broken.body.filters.payloads.true).not.toBe(SAMPLE_ENCRYPTED_PAYLOAD);
    expect(broken.body.filters.payloads.true).not.toBe('"new"');
  });

  it("stores the model's default filters for a create without them: no condition, on for no one", async () => {
    // products/feature_flags/backend/models/feature_flag.py: `default_filters()` is {"groups": []}.
    const created = await h.api("POST", `${FLAGS}/`, { key: "no-filters" });
    expect(created.status).toBe(201);
    expect(created.body.filters).toEqual({ groups: [] });
    const read = await h.api("GET", `${FLAGS}/${created.body.id}/`);
    expect(read.body.filters).toEqual({ groups: [] });
    // Only a create that sends filters without a condition is refused.
    for (const filters of [{}, { groups: [] }, { multivariate: null }]) {
      const refused = await h.api("POST", `${FLAGS}/`, { key: "no-groups", filters });
      expect(refused.status, JSON.stringify(filters)).toBe(400);
    }
  });

  it("refuses a create without groups and refuses to archive an enabled flag", async () => {
    const empty = await h.api("POST", `${FLAGS}/`, { key: "empty", filters: { groups: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe("Feature flags must have at least one condition set (group).");
    const archive = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.checkoutV1}/`, { archived: true });
    expect(archive.status).toBe(400);
    expect(archive.body.detail).toMatch(/^Cannot archive an enabled feature flag/);
    const running = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingPageTest}/`, { deleted: true });
    expect(running.status).toBe(400);
    expect(running.body.detail).toContain('running experiment(s): "Pricing page A/B" (ID: 1)');
  });
});

describe("feature flags: encrypted payloads", () => {
  it("are ciphertext in the store and plain text to a personal API key, kept when a write omits them", async () => {
    const read = await h.api("GET", `${FLAGS}/${FLAG_IDS.pricingConfig}/`);
    expect(read.body.filters.payloads.true).toBe(SAMPLE_ENCRYPTED_PAYLOAD);
    const stored = () =>
      h.state().then((s) => s.feature_flags.find((f: Json) => f.id === FLAG_IDS.pricingConfig));
    const ciphertext = (await stored()).filters.payloads.true;
    expect(ciphertext).not.toContain("SECRET");
    await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingConfig}/`, {
      filters: { groups: [{ rollout_percentage: 90 }] },
    });
    expect((await stored()).filters.payloads.true).toBe(ciphertext);
    await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingConfig}/`, {
      filters: { payloads: { true: '"********* (encrypted)"' } },
    });
    expect((await stored()).filters.payloads.true).toBe(ciphertext);
    const rotated = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingConfig}/`, {
      filters: { payloads: { true: '{"discount_code": "NEW"}' } },
    });
    expect(rotated.body.filters.payloads.true).toBe('{"discount_code": "NEW"}');
    expect((await stored()).filters.payloads.true).not.toContain("NEW");
  });
});

describe("feature flags: evaluation contexts and tags", () => {
  it("blanks evaluation contexts on read and drops them on write without the service flag", async () => {
    const created = await h.api("POST", `${FLAGS}/`, {
      key: "contexts",
      evaluation_contexts: ["production"],
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(created.body.evaluation_contexts).toEqual([]);
    await h.reseed<Json>((s) => {
      s.service.feature_flags["flag-evaluation-tags"] = true;
    });
    const written = await h.api("PATCH", `${FLAGS}/${created.body.id}/`, {
      evaluation_contexts: ["production", "production"],
    });
    expect(written.body.evaluation_contexts).toEqual(["production"]);
    expect((await h.api("GET", `${FLAGS}/${created.body.id}/`)).body.evaluation_contexts).toEqual([
      "production",
    ]);
    await h.reseed<Json>((s) => {
      s.service.feature_flags["flag-evaluation-tags"] = false;
    });
    expect((await h.api("GET", `${FLAGS}/${created.body.id}/`)).body.evaluation_contexts).toEqual([]);
  });

  it("requires evaluation contexts on new flags where the project says so", async () => {
    await h.reseed<Json>((s) => {
      s.service.feature_flags["flag-evaluation-tags"] = true;
      s.projects.find((p: Json) => p.id === 12345).require_evaluation_contexts = true;
    });
    const refused = await h.api("POST", `${FLAGS}/`, {
      key: "ctx",
      filters: { groups: [{ rollout_percentage: 1 }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(
      "At least one evaluation context is required to create a new feature flag.",
    );
    const ok = await h.api("POST", `${FLAGS}/`, {
      key: "ctx",
      evaluation_contexts: ["web"],
      filters: { groups: [{ rollout_percentage: 1 }] },
    });
    expect(ok.status).toBe(201);
  });

  it("ignores tags without the tagging feature", async () => {
    await h.reseed<Json>((s) => {
      s.organizations[0].features.tagging = false;
    });
    const created = await h.api("POST", `${FLAGS}/`, {
      key: "tagged",
      tags: ["A"],
      filters: { groups: [{}] },
    });
    expect(created.body.tags).toEqual([]);
  });
});

describe("feature flags: concurrency and approvals", () => {
  it("refuses a stale update of a field someone else changed, naming them", async () => {
    const read = (await h.api("GET", `${FLAGS}/${FLAG_IDS.checkoutV1}/`)).body;
    await h.api("PATCH", `${FLAGS}/${FLAG_IDS.checkoutV1}/`, { name: "Edited in the UI" }, { key: BOB_KEY });
    const stale = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.checkoutV1}/`, {
      name: "From Git",
      version: read.version,
      original_flag: { name: read.name },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      type: "server_error",
      code: "conflict",
      detail:
        "The feature flag was updated by bob@example.com since you started editing it. Please refresh and try again.",
      attr: null,
    });
  });

  it("holds a change an approval policy matches: 409 with the change request, the flag unchanged", async () => {
    await h.reseed<PartialState>((s) => {
      s.approval_policies?.push({
        organization: ACME_ID,
        action_key: "feature_flag.update",
        conditions: { type: "change_amount", field: "rollout_percentage", operator: ">", value: 10 },
        approver_config: { quorum: 1, users: [2] },
      });
    });
    const small = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.newCheckout}/`, {
      filters: { groups: [{ rollout_percentage: 100 }, { rollout_percentage: 25 }] },
    });
    expect(small.status).toBe(200);
    const version = small.body.version;
    const big = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.newCheckout}/`, {
      filters: { groups: [{ rollout_percentage: 100 }, { rollout_percentage: 60 }] },
    });
    expect(big.status).toBe(409);
    expect(big.body.code).toBe("approval_required");
    expect(big.body.change_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(big.body.message).toBe("A change request has been created and is pending approval.");
    const after = (await h.api("GET", `${FLAGS}/${FLAG_IDS.newCheckout}/`)).body;
    expect(after.version).toBe(version);
    expect(after.filters.groups[1].rollout_percentage).toBe(25);
    const again = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.newCheckout}/`, {
      filters: { groups: [{ rollout_percentage: 100 }, { rollout_percentage: 70 }] },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("change_request_pending");
    expect(again.body.change_request_id).toBe(big.body.change_request_id);
    const approved = await h.api(
      "POST",
      `${P}/change_requests/${big.body.change_request_id}/approve/`,
      {},
      { key: BOB_KEY },
    );
    expect(approved.body.status).toBe("applied");
    expect(
      (await h.api("GET", `${FLAGS}/${FLAG_IDS.newCheckout}/`)).body.filters.groups[1].rollout_percentage,
    ).toBe(60);
  });

  it("withholds an encrypted payload from the change request, and applies it on approval", async () => {
    await h.reseed<PartialState>((s) => {
      s.approval_policies?.push({
        organization: ACME_ID,
        action_key: "feature_flag.update",
        approver_config: { quorum: 1 },
      });
    });
    const held = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingConfig}/`, {
      filters: {
        groups: [{ rollout_percentage: 50 }],
        payloads: { true: '{"discount_code": "ROTATED-77"}' },
      },
    });
    expect(held.status).toBe(409);
    expect(held.text).not.toContain("ROTATED-77");
    expect(held.body.change_request.intent.full_request_data.filters.payloads.true).toBe(
      '"********* (encrypted)"',
    );
    const listed = await h.api("GET", `${P}/change_requests/?state=pending`);
    expect(listed.body.count).toBe(1);
    expect(listed.text).not.toContain("ROTATED-77");
    const approved = await h.api(
      "POST",
      `${P}/change_requests/${held.body.change_request_id}/approve/`,
      {},
      { key: BOB_KEY },
    );
    expect(approved.body.status).toBe("applied");
    const read = await h.api("GET", `${FLAGS}/${FLAG_IDS.pricingConfig}/`);
    expect(read.body.filters.payloads.true).toBe('{"discount_code": "ROTATED-77"}');
  });

  it("lets a membership level the policy names bypass it", async () => {
    await h.reseed<PartialState>((s) => {
      s.approval_policies?.push({
        organization: ACME_ID,
        action_key: "feature_flag.disable",
        approver_config: { quorum: 1 },
        bypass_org_membership_levels: ["8"],
      });
    });
    const member = await h.api("POST", `${FLAGS}/${FLAG_IDS.pricingPageTest}/disable/`, {}, { key: BOB_KEY });
    expect(member.status).toBe(409);
    const admin = await h.api("POST", `${FLAGS}/${FLAG_IDS.pricingPageTest}/disable/`, {});
    expect(admin.status).toBe(200);
    expect(admin.body.active).toBe(false);
  });
});

describe("feature flags: keys held by soft-deleted flags", () => {
  it("frees the key of a deleted flag on create, and a restore takes a tombstoned key back", async () => {
    const reuse = await h.api("POST", `${FLAGS}/`, { key: "legacy-onboarding", filters: { groups: [{}] } });
    expect(reuse.status).toBe(201);
    expect((await h.api("GET", `${FLAGS}/${FLAG_IDS.legacyOnboarding}/`)).status).toBe(404);
    await h.api("POST", `${P}/feature_flags/${FLAG_IDS.pricingPageTest}/disable/`, {});
    await h.reseed<Json>((s) => {
      s.experiments[0].end_date = s.experiments[0].start_date;
    });
    const deleted = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingPageTest}/`, { deleted: true });
    expect(deleted.body.key).toBe(`pricing-page-test:deleted:${FLAG_IDS.pricingPageTest}`);
    const restored = await h.api("PATCH", `${FLAGS}/${FLAG_IDS.pricingPageTest}/`, { deleted: false });
    expect(restored.body.key).toBe("pricing-page-test");
  });
});

describe("the default seed's flags and cohorts", () => {
  it("dates last_called_at from the emulator's clock", async () => {
    const flag = (await h.api("GET", `${FLAGS}/${FLAG_IDS.checkoutV1}/`)).body;
    const now = h.clock.now();
    expect(Math.abs(now - DAY - Date.parse(flag.last_called_at))).toBeLessThan(60_000);
    const banner = (await h.api("GET", `${FLAGS}/${FLAG_IDS.oldBanner}/?archived=true`)).body;
    expect(now - Date.parse(banner.last_called_at)).toBeGreaterThan(30 * DAY);
  });

  it("lists a project's cohorts, newest first, with cohort:read", async () => {
    const list = await h.api("GET", `${P}/cohorts/`);
    expect(list.status).toBe(200);
    expect(list.body.results.map((c: Json) => c.name)).toEqual([
      "Conference attendees",
      "Signed up recently",
      "Beta testers or staff",
      "Recent purchasers",
      "Internal staff",
      "Beta testers",
    ]);
    expect((await h.api("GET", "/api/projects/12346/cohorts/")).body.results.map((c: Json) => c.id)).toEqual([
      4,
    ]);
    await h.reseed<PartialState>((s) =>
      s.api_keys?.push({ key: "phx_flags", user: 1, scopes: ["feature_flag:read"] }),
    );
    expect((await h.api("GET", `${P}/cohorts/`, undefined, { key: "phx_flags" })).status).toBe(403);
  });

  it("refuses a behavioural cohort in a flag", async () => {
    const response = await h.api("POST", `${FLAGS}/`, {
      key: "buyers",
      filters: { groups: [{ properties: [{ key: "id", type: "cohort", value: 3 }] }] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: "validation_error",
      code: "behavioral_cohort_found",
      detail:
        "Cohort 'Recent purchasers' has an event-based condition on 'purchase' (performed_event) and cannot be used in feature flags.",
      attr: "filters",
    });
  });
});
