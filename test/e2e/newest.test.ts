/**
 * What a user trying the tool on the newest PostHog service meets on day one, through the real CLI and
 * the emulator in its default (newest) mode: a member who neither created a dashboard nor administers
 * the project edits its description (and restores it) without a 403; an export created paused is
 * unpaused without the service's backfill from the beginning of the data; a 10-day-old run is retried
 * and its logs read; a new legacy S3 export plans with a warning showing the integration form.
 */

import { BOB_KEY, OLD_RUN_ID } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { type Json, P, recordingProxy, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const asBob = { POSTHOG_API_KEY: BOB_KEY };

describe("a non-owner member (bob) edits dashboards", () => {
  it("changes a description with restriction_level declared and unchanged: no 403", async () => {
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - name: Product KPIs\n    description: Edited by bob\n    restriction_level: everyone\n",
    );
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "p"], asBob);
    expect(apply.stdout).not.toContain("✗");
    expect(apply.code).toBe(0);
    expect((await h.requests()).filter((r) => r.status >= 400)).toEqual([]);
    expect((await h.state()).dashboards.find((d: Json) => d.id === 1).description).toBe("Edited by bob");
    expect((await h.cli(["plan", "--detailed-exitcode", "p"], asBob)).code).toBe(0);
  });

  it("restores a pinned dashboard and updates it: the update reads it back and omits restriction_level", async () => {
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true })).status).toBe(200);
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - id: 2\n    name: Marketing Overview\n    description: Back, by bob\n    restriction_level: everyone\n",
    );
    const proxy = await recordingProxy(() => h.url);
    try {
      const apply = await h.cli(["apply", "--auto-approve", "p"], { ...asBob, POSTHOG_HOST: proxy.url });
      expect(apply.stdout).not.toContain("✗");
      expect(apply.code).toBe(0);
      const patches = proxy.recorded.filter((r) => r.method === "PATCH").map((r) => JSON.parse(r.body));
      expect(patches).toEqual([{ deleted: false }, { description: "Back, by bob" }]);
    } finally {
      await proxy.close();
    }
    expect((await h.requests()).filter((r) => r.status >= 400)).toEqual([]);
    const d = (await h.state()).dashboards.find((x: Json) => x.id === 2);
    expect([d.deleted, d.description]).toEqual([false, "Back, by bob"]);
  });

  it("still sends restriction_level when it changes (and the service decides who may)", async () => {
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - name: Product KPIs\n    restriction_level: only_collaborators\n",
    );
    const plan = JSON.parse((await h.cli(["plan", "--format", "json", "p"], asBob)).stdout);
    expect(plan.actions.map((a: Json) => a.after)).toEqual([{ restriction_level: 37 }]);
    const apply = await h.cli(["apply", "--auto-approve", "p"], asBob);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/403[^\n]*Only the dashboard owner and project admins/);
  });
});

describe("an export created paused", () => {
  const config = (paused: boolean) => `project: 12345
batch_exports:
  - name: paused-from-birth
    model: events
    interval: day
    start_at: 2026-11-10T00:00:00Z
    paused: ${paused}
    backfill_on_unpause: true
    destination:
      type: AwsS3
      integration: 1
      config: {bucket_name: acme-paused, region: us-east-1, prefix: p/}
`;

  it("is unpaused without backfill: true, with the backfill command for what it missed", async () => {
    h.write("p/b.yaml", config(true));
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    const [created] = (await h.state()).batch_exports.filter((b: Json) => b.name === "paused-from-birth");
    expect([created.paused, created.last_paused_at]).toEqual([true, null]);

    h.write("p/b.yaml", config(false));
    const plan = await h.cli(["plan", "--format", "json", "p"]);
    const [unpause] = JSON.parse(plan.stdout).actions;
    expect(unpause.action).toBe("unpause");
    expect(unpause.after).toEqual({ paused: false });
    expect(unpause.warnings).toHaveLength(1);
    expect(unpause.warnings[0]).toMatch(
      /export everything from the beginning of the data: no backfill is requested\. To export what it missed, run: posthog-gitops backfill paused-from-birth --start 2026-11-10 --end 2026-11-20$/,
    );

    const proxy = await recordingProxy(() => h.url);
    try {
      const apply = await h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: proxy.url });
      expect(apply.code).toBe(0);
      const unpauses = proxy.recorded.filter((r) => r.path.endsWith("/unpause/"));
      expect(unpauses).toHaveLength(1);
      expect(JSON.parse(unpauses[0]?.body || "{}")).not.toHaveProperty("backfill");
    } finally {
      await proxy.close();
    }
    const state = await h.state();
    expect(state.batch_exports.find((b: Json) => b.id === created.id).paused).toBe(false);
    expect(state.backfills.filter((f: Json) => f.batch_export === created.id)).toEqual([]);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);

    // The command the warning gave works as given.
    const backfill = await h.cli([
      "backfill",
      "paused-from-birth",
      "--start",
      "2026-11-10",
      "--end",
      "2026-11-20",
      "--project",
      "12345",
    ]);
    expect(backfill.stderr).not.toMatch(/error/);
    expect(backfill.code).toBe(0);
    const made = (await h.state()).backfills.filter((f: Json) => f.batch_export === created.id);
    expect(made).toHaveLength(1);
    expect(made[0].start_at).not.toBeNull();
  });
});

describe("a run older than the service's 7-day window", () => {
  it("is retried and its logs read through the CLI", async () => {
    const env = { POSTHOG_PROJECT_ID: "12345" };
    const logs = await h.cli(["logs", "Events to S3", "--run", OLD_RUN_ID], env);
    expect(logs.stderr).toBe('2 log entries of "Events to S3"\n');
    expect(logs.code).toBe(0);
    const retry = await h.cli(["retry", "Events to S3", OLD_RUN_ID, "--auto-approve"], env);
    expect(retry.stdout).toMatch(new RegExp(`^retried run ${OLD_RUN_ID} `));
    expect(retry.code).toBe(0);
    expect((await h.requests()).filter((r) => r.status >= 400)).toEqual([]);
  });
});

describe("creating an export in a legacy form", () => {
  it("plans with a warning that the newest service refuses it, showing the integration form", async () => {
    h.write(
      "p/b.yaml",
      `project: 12345
batch_exports:
  - name: brand-new-legacy
    destination:
      type: S3
      config:
        bucket_name: acme-new
        region: eu-west-1
        prefix: raw/
        aws_access_key_id: \${AK}
        aws_secret_access_key: \${SK}
`,
    );
    await h.clearRequests();
    const plan = JSON.parse((await h.cli(["plan", "--format", "json", "p"])).stdout);
    expect(plan.actions.map((a: Json) => a.action)).toEqual(["create"]);
    expect(plan.actions[0].warnings).toEqual([
      'the newest PostHog service refuses new S3 exports ("S3" is not a valid choice any more: the S3 family is AwsS3 / S3Compatible); this create works only on an older service. Create an aws-s3 integration in PostHog (it holds the credentials) and declare destination: {type: AwsS3, integration: <id of an aws-s3 integration>, config: {bucket_name: acme-new, region: eu-west-1, prefix: raw/}}',
    ]);
    expect((await h.requests()).every((r) => r.method === "GET")).toBe(true);
  });
});
