/** Fixtures shared by the end-to-end suites. */
import { expect } from "vitest";
import { type EmulatorHarness, P, USER_UUIDS } from "../support/emulator.js";

export const SECRETS = { NEW_TOKEN: "phc_roundtrip_secret_token_1" };

/** A third, running export (NoOp) for the pause case. */
export async function addRunningExport(e: EmulatorHarness): Promise<string> {
  const res = await e.api("POST", `${P}/batch_exports/`, {
    name: "Sessions NoOp",
    model: "sessions",
    interval: "day",
    destination: { type: "NoOp", config: {} },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** On the default seed (after dashboard 4 is soft-deleted), a plan with all eleven action kinds. */
export const ALL_KINDS_CONFIG = `project: 12345
dashboards:
  - name: Product KPIs            # update + disable_sharing
    description: Weekly product health, reviewed on Mondays
    sharing:
      enabled: false
  - name: Marketing Overview      # soft_delete
    deleted: true
  - name: Revenue                 # remove carol, add bob
    restriction_level: only_collaborators
    collaborators:
      - user_uuid: ${USER_UUIDS.bob}
        level: can_edit
  - id: 4                         # restore (soft-deleted before the plan), then enable_sharing
    name: Onboarding Funnel
    sharing:
      enabled: true
  - name: Created by e2e          # create
    description: made by the round-trip test
    tags: [e2e]
batch_exports:
  - name: Events to S3            # pause
    paused: true
  - name: Persons to Postgres     # unpause + update
    paused: false
    interval: hour
  - name: Sessions NoOp           # delete
    deleted: true
  - name: New S3 export           # create: AwsS3, its keys in integration 1
    model: events
    interval: day
    destination:
      type: AwsS3
      integration: 1
      config:
        bucket_name: e2e-bucket
        region: eu-west-1
        prefix: e2e/
  - name: New HTTP export         # create, with a secret
    model: events
    interval: day
    destination:
      type: HTTP
      config:
        url: https://eu.i.posthog.com/batch/
        token: \${NEW_TOKEN}
`;
