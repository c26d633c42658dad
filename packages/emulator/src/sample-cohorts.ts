/**
 * The default seed's cohorts, actions and persons, stored as the service stores what its API wrote:
 * filters rewritten (`negation: false`, `bytecode`, `conditionHash`, a computed `cohort_type`),
 * action steps with their ten keys, calculations done. In project 12345: cohorts "Beta testers" (a
 * flag uses it), "Internal staff", "Recent purchasers" (behavioural, refused by flags), "Beta testers
 * or staff" (made of the first two), "Signed up recently" (behavioural on the action "Signed up"),
 * "Conference attendees" (static, three persons); actions "Signed up", "Clicked buy button" (an
 * autocapture step with a selector), "Viewed pricing page" (a regex URL) and a soft-deleted "Old
 * signup"; in project 12346 its own "Beta testers" and "Signed up" (another id, the same name).
 */
import { actionRecord, cohortRecord } from "./records.js";
import { fillStep } from "./routes/action-steps.js";
import { type FilterContext, realtimeSupported, validateCohortFilters } from "./routes/cohort-filters.js";
import type { ActionRecord, CohortRecord, PersonRecord, StoreData } from "./types.js";

/** Action ids of the default seed. */
export const ACTION_IDS = {
  signedUp: 1,
  clickedBuy: 2,
  viewedPricing: 3,
  oldSignup: 4,
  stagingSignedUp: 5,
} as const;

/** Cohort ids of the default seed. */
export const COHORT_IDS = {
  betaTesters: 1,
  internalStaff: 2,
  recentPurchasers: 3,
  stagingBetaTesters: 4,
  betaOrStaff: 5,
  signedUpRecently: 6,
  conferenceAttendees: 7,
} as const;

const PERSON_UUIDS = [
  "0190f1d2-7b4e-7c3a-9d1f-00000000f001",
  "0190f1d2-7b4e-7c3a-9d1f-00000000f002",
  "0190f1d2-7b4e-7c3a-9d1f-00000000f003",
] as const;

const group = (type: "AND" | "OR", values: unknown[]) => ({ type, values });

function actions(): ActionRecord[] {
  const at = (day: number) => `2025-03-${String(day).padStart(2, "0")}T09:00:00.000Z`;
  return [
    actionRecord({
      id: ACTION_IDS.signedUp,
      team_id: 12345,
      name: "Signed up",
      description: "A completed sign-up",
      created_at: at(1),
      created_by: 1,
      tags: ["growth"],
      steps: [fillStep({ event: "signed_up" })],
    }),
    actionRecord({
      id: ACTION_IDS.clickedBuy,
      team_id: 12345,
      name: "Clicked buy button",
      created_at: at(2),
      created_by: 1,
      steps: [
        fillStep({
          event: "$autocapture",
          selector: "div.pricing > button.buy",
          text: "Buy now",
          url: "/pricing",
        }),
      ],
    }),
    actionRecord({
      id: ACTION_IDS.viewedPricing,
      team_id: 12345,
      name: "Viewed pricing page",
      created_at: at(3),
      created_by: 2,
      pinned_at: at(4),
      steps: [
        fillStep({ event: "$pageview", url: "^https://example\\.com/pricing/?$", url_matching: "regex" }),
      ],
    }),
    actionRecord({
      id: ACTION_IDS.oldSignup,
      team_id: 12345,
      name: "Old signup",
      created_at: at(5),
      created_by: 1,
      deleted: true,
      steps: [fillStep({ event: "user_signed_up" })],
    }),
    actionRecord({
      id: ACTION_IDS.stagingSignedUp,
      team_id: 12346,
      name: "Signed up",
      created_at: at(6),
      created_by: 1,
      steps: [fillStep({ event: "signed_up" })],
    }),
  ];
}

interface CohortSpec {
  id: number;
  team_id: number;
  name: string;
  description?: string;
  filters: Record<string, unknown> | null;
  is_static?: boolean;
  count: number;
  day: number;
  people?: string[];
}

const SPECS: CohortSpec[] = [
  {
    id: COHORT_IDS.betaTesters,
    team_id: 12345,
    name: "Beta testers",
    description: "People who opted into betas",
    filters: {
      properties: group("OR", [
        group("AND", [{ key: "beta", type: "person", operator: "exact", value: ["true"] }]),
      ]),
    },
    count: 120,
    day: 1,
  },
  {
    id: COHORT_IDS.internalStaff,
    team_id: 12345,
    name: "Internal staff",
    filters: {
      properties: group("OR", [
        group("AND", [{ key: "email", type: "person", operator: "icontains", value: "@acme.com" }]),
      ]),
    },
    count: 40,
    day: 2,
  },
  {
    id: COHORT_IDS.recentPurchasers,
    team_id: 12345,
    name: "Recent purchasers",
    description: "Bought something in the last 30 days",
    filters: {
      properties: group("OR", [
        group("AND", [
          {
            key: "purchase",
            type: "behavioral",
            value: "performed_event",
            event_type: "events",
            time_value: 30,
            time_interval: "day",
          },
        ]),
      ]),
    },
    count: 310,
    day: 3,
  },
  {
    id: COHORT_IDS.stagingBetaTesters,
    team_id: 12346,
    name: "Beta testers",
    // Dynamic, like production's: the examples promote between the two projects, and a static cohort
    // there would (rightly) be warned about on every plan of both (promote's static-cohort warning).
    filters: {
      properties: group("OR", [
        group("AND", [{ key: "beta", type: "person", operator: "exact", value: ["true"] }]),
      ]),
    },
    count: 3,
    day: 4,
  },
  {
    id: COHORT_IDS.betaOrStaff,
    team_id: 12345,
    name: "Beta testers or staff",
    description: "Made of two other cohorts",
    filters: {
      properties: group("OR", [
        group("OR", [
          { key: "id", type: "cohort", value: COHORT_IDS.betaTesters },
          { key: "id", type: "cohort", value: COHORT_IDS.internalStaff },
        ]),
      ]),
    },
    count: 150,
    day: 5,
  },
  {
    id: COHORT_IDS.signedUpRecently,
    team_id: 12345,
    name: "Signed up recently",
    description: "Did the action Signed up in the last 14 days",
    filters: {
      properties: group("OR", [
        group("AND", [
          {
            key: ACTION_IDS.signedUp,
            type: "behavioral",
            value: "performed_event",
            event_type: "actions",
            time_value: 14,
            time_interval: "day",
          },
        ]),
      ]),
    },
    count: 25,
    day: 6,
  },
  {
    id: COHORT_IDS.conferenceAttendees,
    team_id: 12345,
    name: "Conference attendees",
    description: "Uploaded from the badge scanner's CSV",
    filters: null,
    is_static: true,
    count: 3,
    day: 7,
    people: [...PERSON_UUIDS],
  },
];

function persons(): PersonRecord[] {
  return PERSON_UUIDS.map((uuid, i) => ({
    uuid,
    team_id: 12345,
    distinct_ids: [`attendee-${i + 1}`],
    properties: { email: `attendee${i + 1}@example.com` },
    created_at: "2025-04-07T08:00:00.000Z",
  }));
}

export function sampleCohorts(): Pick<StoreData, "cohorts" | "actions" | "persons" | "hog_functions"> {
  const sampleActions = actions();
  const cohorts: CohortRecord[] = [];
  const ctx = (team: number): FilterContext => ({
    cohort: (id) => cohorts.find((c) => c.id === id && c.team_id === team),
    action: (id) => sampleActions.find((a) => a.id === id && a.team_id === team),
    bytecodeVersion: 1,
  });
  for (const spec of SPECS) {
    const created = `2025-04-0${spec.day}T09:00:00.000Z`;
    let filters = spec.filters;
    if (filters && Object.keys(filters).length > 0) {
      const checked = validateCohortFilters(filters, ctx(spec.team_id));
      if (!checked.ok) throw new Error(`sample cohort ${spec.id}: ${JSON.stringify(checked.errors)}`);
      filters = checked.filters;
    }
    const dynamic = !spec.is_static;
    cohorts.push(
      cohortRecord({
        id: spec.id,
        team_id: spec.team_id,
        name: spec.name,
        description: spec.description ?? "",
        filters,
        is_static: spec.is_static === true,
        cohort_type: dynamic && filters ? (realtimeSupported(filters) ? "realtime" : null) : null,
        created_at: created,
        created_by: 1,
        count: spec.count,
        version: dynamic ? 1 : null,
        pending_version: dynamic ? 1 : null,
        last_calculation: `2025-04-0${spec.day}T09:05:00.000Z`,
        people: spec.people ?? [],
      }),
    );
  }
  return { cohorts, actions: sampleActions, persons: persons(), hog_functions: [] };
}
