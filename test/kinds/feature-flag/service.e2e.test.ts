/** The flag endpoints the kind calls, against the emulator: pages, key lookups, writes, refusals. */

import { FLAG_IDS } from "posthog-gitops-emulator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cohortsApi } from "../../../src/kinds/cohort/service.js";
import { FLAG_ANSWERS } from "../../../src/kinds/feature-flag/answers.js";
import { featureFlagsApi, payloadForms } from "../../../src/kinds/feature-flag/service.js";
import { ServiceClient } from "../../../src/service/client.js";
import { ServiceError, UnexpectedAnswerError } from "../../../src/service/errors.js";
import { P, useEmulator } from "../../support/emulator.js";

const h = useEmulator();
let client: ServiceClient;
let flags: ReturnType<typeof featureFlagsApi>;
beforeEach(() => {
  client = new ServiceClient({ host: h.url, apiKey: h.key, clock: h.clock });
  flags = featureFlagsApi(client);
});
afterEach(async () => {
  await client.close();
});

describe("feature flag endpoints", () => {
  it("lists the flags and, separately, the archived ones, one request each for a small project", async () => {
    await h.clearRequests();
    expect((await flags.listAll(12345)).map((f) => f.key).sort()).toEqual([
      "checkout-v1",
      "holiday-promo",
      "new-checkout",
      "pricing-config",
      "pricing-page-test",
    ]);
    expect((await flags.listAll(12345, true)).map((f) => f.key)).toEqual(["old-banner"]);
    expect((await h.requests()).map((r) => r.query)).toEqual(["limit=100", "archived=true&limit=100"]);
  });

  it("finds a key exactly, though the service matches it case-insensitively", async () => {
    expect((await flags.withKey(12345, "checkout-v1")).map((f) => f.id)).toEqual([FLAG_IDS.checkoutV1]);
    expect(await flags.withKey(12345, "CHECKOUT-V1")).toEqual([]);
  });

  it("reads a soft-deleted flag by id, creates, patches and switches flags", async () => {
    expect((await flags.get(12345, FLAG_IDS.legacyOnboarding)).deleted).toBe(true);
    const made = await flags.create(12345, {
      key: "svc",
      filters: { groups: [{ rollout_percentage: 5 }] },
    });
    expect(made.version).toBe(1);
    const patched = await flags.update(12345, made.id, { name: "Service test" });
    expect(patched.version).toBe(2);
    expect((await flags.act(12345, made.id, "disable")).active).toBe(false);
    expect((await flags.act(12345, made.id, "archive")).archived).toBe(true);
  });

  it("carries the service's refusal, and a held write's change request", async () => {
    const refused = await flags.act(12345, FLAG_IDS.checkoutV1, "disable").catch((e) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused.status).toBe(400);
    expect(refused.detail).toMatch(
      /^Cannot disable this feature flag because other flags depend on it: new-checkout/,
    );
    await h.reseed<Record<string, unknown[]>>((s) => {
      s.approval_policies?.push({
        organization: "0190f1d2-7b4e-7c3a-9d1f-00000000ac3e",
        action_key: "feature_flag.disable",
        approver_config: { quorum: 1 },
      });
    });
    const held = await flags
      .act(12345, FLAG_IDS.holidayPromo, "enable")
      .then(() => flags.act(12345, FLAG_IDS.holidayPromo, "disable"))
      .catch((e) => e);
    expect(held).toBeInstanceOf(ServiceError);
    expect(held.status).toBe(409);
    expect(held.serviceCode).toBe("approval_required");
    expect(held.changeRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("lists cohorts, and refuses a list answer of the wrong shape", async () => {
    expect((await cohortsApi(client).listAll(12345)).map((c) => c.name)).toEqual([
      "Conference attendees",
      "Signed up recently",
      "Beta testers or staff",
      "Recent purchasers",
      "Internal staff",
      "Beta testers",
    ]);
    const fake = new ServiceClient({ host: h.url, apiKey: h.key, clock: h.clock });
    // A flags page whose items lack `key`: an unexpected answer, never "no flags".
    const error = await fake
      .listAll(`${P}/cohorts/`, {}, FLAG_ANSWERS.featureFlagPage)
      .catch((e) => e)
      .finally(() => fake.close());
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
  });
});

describe("an encrypted payload's forms for the scrubber", () => {
  it("are the stored text, its compact and Python-spaced JSON, and every scalar and key inside", () => {
    const stored = '{"pin": 73519284, "tier": "gold", "on": true, "caps": [4096, {"region": "eu"}]}';
    const forms = payloadForms(stored);
    expect(forms).toEqual(
      expect.arrayContaining([
        stored,
        '{"pin":73519284,"tier":"gold","on":true,"caps":[4096,{"region":"eu"}]}',
        "pin",
        "73519284",
        "tier",
        "gold",
        "on",
        "caps",
        "4096",
        "region",
        "eu",
      ]),
    );
    // Stored compact (another client), read back spaced: both are forms.
    expect(payloadForms('{"a":[1,2]}')).toEqual(expect.arrayContaining(['{"a":[1,2]}', '{"a": [1, 2]}']));
    expect(payloadForms("not json")).toEqual(["not json"]);
    expect(payloadForms('"a plain text"')).toContain("a plain text");
  });

  it("survive a payload nested deeper than a stack holds", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(payloadForms(deep)).toContain(deep);
  });
});
