/**
 * The default seed's feature flags and experiment, dated from `now` (so "evaluated in the last
 * 30 days" holds whatever day the emulator starts): in project 12345 a flag others depend on
 * (`checkout-v1`), a multivariate flag with a payload, a flag dependency and a cohort
 * (`new-checkout`), a remote-configuration flag with an encrypted payload (`pricing-config`), an
 * archived flag, a flag a running experiment uses (`pricing-page-test`), a disabled one never
 * evaluated and a soft-deleted one (the cohorts they name are sample-cohorts.ts's); in project 12346 its
 * own `checkout-v1` (another id).
 */
import { createHash } from "node:crypto";
import { encryptPayload } from "./routes/flag-payloads.js";
import type { StoreData } from "./types.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The plain text of `pricing-config`'s encrypted payload: a secret no output may show. */
export const SAMPLE_ENCRYPTED_PAYLOAD = '{"discount_code": "EMU-7Q4-SECRET-0042"}';

/** Flag ids of the default seed. */
export const FLAG_IDS = {
  checkoutV1: 1,
  newCheckout: 2,
  pricingConfig: 3,
  oldBanner: 4,
  pricingPageTest: 5,
  holidayPromo: 6,
  legacyOnboarding: 7,
  stagingCheckoutV1: 8,
} as const;

const group = (rollout: number | null, properties: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  properties,
  rollout_percentage: rollout,
  variant: null,
  aggregation_group_type_index: null,
  ...extra,
});

const fiftyFifty = {
  variants: [
    { key: "control", name: "Control", rollout_percentage: 50 },
    { key: "test", name: "Test", rollout_percentage: 50 },
  ],
};

export function sampleFlags(now: number): Pick<StoreData, "feature_flags" | "experiments"> {
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const flag = (
    f: Partial<StoreData["feature_flags"][number]> & { id: number; key: string; created_at: string },
  ) => ({
    team_id: 12345,
    name: "",
    active: true,
    archived: false,
    deleted: false,
    created_by: 1,
    updated_at: f.created_at,
    last_modified_by: 1,
    version: 1,
    ensure_experience_continuity: false,
    is_remote_configuration: false,
    has_encrypted_payloads: false,
    evaluation_runtime: "all" as const,
    bucketing_identifier: "distinct_id" as const,
    evaluation_contexts: [],
    tags: [],
    last_called_at: null,
    analytics_dashboards: [],
    rollout_percentage: null,
    filters: { groups: [group(100)], aggregation_group_type_index: null },
    ...f,
  });
  const iv = createHash("sha256").update("pricing-config").digest().subarray(0, 12);
  return {
    feature_flags: [
      flag({
        id: FLAG_IDS.checkoutV1,
        key: "checkout-v1",
        name: "Checkout v1",
        created_at: "2025-05-01T09:00:00.000Z",
        last_called_at: ago(DAY),
      }),
      flag({
        id: FLAG_IDS.newCheckout,
        key: "new-checkout",
        name: "New checkout flow",
        created_at: "2025-06-01T09:00:00.000Z",
        version: 3,
        tags: ["checkout"],
        last_called_at: ago(2 * HOUR),
        filters: {
          groups: [
            group(100, [
              { key: "email", type: "person", operator: "icontains", value: "@acme.com" },
              { key: "1", type: "flag", operator: "flag_evaluates_to", value: true },
              { key: "id", type: "cohort", operator: "in", value: 1 },
            ]),
            group(20),
          ],
          multivariate: fiftyFifty,
          payloads: { test: '{"color": "blue"}' },
          aggregation_group_type_index: null,
        },
      }),
      flag({
        id: FLAG_IDS.pricingConfig,
        key: "pricing-config",
        name: "Pricing configuration",
        created_at: "2025-07-01T09:00:00.000Z",
        is_remote_configuration: true,
        has_encrypted_payloads: true,
        last_called_at: ago(HOUR),
        filters: {
          groups: [group(100)],
          payloads: { true: encryptPayload(SAMPLE_ENCRYPTED_PAYLOAD, iv) },
          aggregation_group_type_index: null,
        },
      }),
      flag({
        id: FLAG_IDS.oldBanner,
        key: "old-banner",
        name: "Old banner",
        created_at: "2025-02-01T09:00:00.000Z",
        active: false,
        archived: true,
        version: 4,
        last_called_at: ago(90 * DAY),
      }),
      flag({
        id: FLAG_IDS.pricingPageTest,
        key: "pricing-page-test",
        name: "Pricing page A/B",
        created_at: "2025-08-01T09:00:00.000Z",
        last_called_at: ago(HOUR),
        filters: { groups: [group(100)], multivariate: fiftyFifty, aggregation_group_type_index: null },
      }),
      flag({
        id: FLAG_IDS.holidayPromo,
        key: "holiday-promo",
        name: "Holiday promotion",
        created_at: "2025-09-01T09:00:00.000Z",
        active: false,
        filters: { groups: [group(0)], aggregation_group_type_index: null },
      }),
      flag({
        id: FLAG_IDS.legacyOnboarding,
        key: "legacy-onboarding",
        name: "Legacy onboarding",
        created_at: "2025-01-10T09:00:00.000Z",
        active: false,
        deleted: true,
        version: 5,
      }),
      flag({
        id: FLAG_IDS.stagingCheckoutV1,
        team_id: 12346,
        key: "checkout-v1",
        name: "Checkout v1",
        created_at: "2025-05-02T09:00:00.000Z",
      }),
    ],
    experiments: [
      {
        id: 1,
        team_id: 12345,
        name: "Pricing page A/B",
        feature_flag: FLAG_IDS.pricingPageTest,
        start_date: ago(10 * DAY),
        end_date: null,
        deleted: false,
      },
    ],
  };
}
