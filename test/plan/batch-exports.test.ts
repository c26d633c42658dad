import { describe, expect, it } from "vitest";
import {
  desiredBatchExport,
  liveBatchExport,
  NOW,
  SECRET_VALUE,
  s3Destination,
  secret,
} from "../builders.js";
import { planOne, steps } from "./helpers.js";

const NAME = "events-to-s3";
const secretRef = (variable: string) => ({ $secret: `\${${variable}}`, variables: [variable] });

describe("batch exports", () => {
  it("creates with the destination config and secrets as SecretRefs", () => {
    const { plan, errors } = planOne({ batchExports: [desiredBatchExport()] }, {});
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual([`create:${NAME}`]);
    expect(plan.actions[0]?.after).toEqual({
      name: NAME,
      model: "events",
      interval: "hour",
      destination: {
        type: "S3",
        config: {
          bucket_name: "acme-analytics",
          region: "us-east-1",
          prefix: "posthog/",
          aws_access_key_id: secretRef("AWS_ACCESS_KEY_ID"),
          aws_secret_access_key: secretRef("AWS_SECRET_ACCESS_KEY"),
        },
      },
    });
    expect(plan.actions[0]?.object.id).toBeUndefined();
  });

  it("plans nothing when in sync, secrets included (write-only)", () => {
    const { plan } = planOne({ batchExports: [desiredBatchExport()] }, { batchExports: [liveBatchExport()] });
    expect(plan.actions).toEqual([]);
  });

  it("updates declared fields and sends secrets along when the destination changes", () => {
    const desired = desiredBatchExport({
      interval: "day",
      destination: s3Destination({
        config: { bucket_name: "new-bucket", region: "us-east-1", prefix: "posthog/" },
      }),
    });
    const { plan } = planOne({ batchExports: [desired] }, { batchExports: [liveBatchExport()] });
    expect(steps(plan.actions)).toEqual([`update:${NAME}`]);
    const update = plan.actions[0];
    expect(update?.changes.map((c) => [c.path, c.secret ?? false])).toEqual([
      ["interval", false],
      ["destination.config.bucket_name", false],
      ["destination.config.aws_access_key_id", true],
      ["destination.config.aws_secret_access_key", true],
    ]);
    expect(update?.changes.filter((c) => c.secret).every((c) => !("before" in c))).toBe(true);
    expect(update?.after).toMatchObject({
      interval: "day",
      destination: { type: "S3", config: { bucket_name: "new-bucket" } },
    });
    expect(update?.before).toEqual({
      interval: "hour",
      destination: { config: { bucket_name: "acme-analytics" } },
    });
    expect(update?.warnings.join()).toMatch(/interval changes from hour to day/);
  });

  it("keeps secrets out of an update that does not touch the destination", () => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ interval: "day" })] },
      { batchExports: [liveBatchExport()] },
    );
    expect(plan.actions[0]?.changes.map((c) => c.path)).toEqual(["interval"]);
  });

  it("rotates secrets on request, even when nothing else differs", () => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport()] },
      { batchExports: [liveBatchExport()] },
      { rotateSecrets: true },
    );
    expect(plan.actions[0]?.changes.map((c) => [c.path, c.secret])).toEqual([
      ["destination.config.aws_access_key_id", true],
      ["destination.config.aws_secret_access_key", true],
    ]);
  });

  it("never puts a secret value in the plan", () => {
    const cases = [
      planOne({ batchExports: [desiredBatchExport()] }, {}),
      planOne(
        { batchExports: [desiredBatchExport()] },
        { batchExports: [liveBatchExport()] },
        { rotateSecrets: true },
      ),
      planOne(
        {
          batchExports: [
            desiredBatchExport({
              destination: s3Destination({
                type: "Postgres",
                config: { host: "h", database: "d" },
                secrets: { user: secret("PG_USER"), password: secret("AWS_SECRET_ACCESS_KEY") },
              }),
            }),
          ],
        },
        { batchExports: [liveBatchExport()] },
        { force: true },
      ),
    ];
    for (const { plan } of cases) {
      expect(plan.actions.length).toBeGreaterThan(0);
      expect(JSON.stringify(plan)).not.toContain(SECRET_VALUE);
      expect(JSON.stringify(plan)).toContain("AWS_SECRET_ACCESS_KEY");
    }
  });

  it.each([
    ["paused", false, true, "pause"],
    ["unpaused", true, false, "unpause"],
  ])("reconciles %s through actions, never in an update", (_l, live, desired, action) => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ paused: desired })] },
      { batchExports: [liveBatchExport({ paused: live })] },
    );
    expect(plan.actions.map((a) => [a.action, a.after])).toEqual([[action, { paused: desired }]]);
  });

  it("warns about the paused gap when unpausing, with the backfill command", () => {
    const since = "2026-02-20T08:00:00Z";
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ paused: false })] },
      { batchExports: [liveBatchExport({ paused: true, last_paused_at: since })] },
    );
    // Hourly: whole hours from the paused one up to the current one, as UTC instants.
    expect(plan.actions[0]?.warnings).toEqual([
      `exports for [${since}, ${NOW.toISOString()}) will not be exported; to export them, run: posthog-gitops backfill ${NAME} --start 2026-02-20T08:00:00Z --end 2026-03-01T12:00:00Z`,
    ]);
  });

  it("gives daily exports a backfill command with dates, the form the service requires", () => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ paused: false, interval: "day" })] },
      {
        batchExports: [
          liveBatchExport({ paused: true, interval: "day", last_paused_at: "2026-02-20T08:00:00Z" }),
        ],
      },
    );
    expect(plan.actions.map((a) => a.action)).toEqual(["unpause"]);
    expect(plan.actions[0]?.warnings[0]).toMatch(/--start 2026-02-20 --end 2026-03-01$/);
  });

  it("does not warn when the pause missed no whole interval", () => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ paused: false })] },
      { batchExports: [liveBatchExport({ paused: true, last_paused_at: "2026-03-01T12:00:00Z" })] },
    );
    expect(plan.actions[0]?.action).toBe("unpause");
    expect(plan.actions[0]?.warnings).toEqual([]);
  });

  it("backfills the gap on unpause when asked to, and notes it", () => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ paused: false, backfill_on_unpause: true })] },
      { batchExports: [liveBatchExport({ paused: true, last_paused_at: "2026-02-20T08:00:00Z" })] },
    );
    expect(plan.actions[0]?.after).toEqual({ paused: false, backfill: true });
    expect(plan.actions[0]?.warnings).toEqual([]);
    expect(plan.notes[0]?.message).toMatch(/will be backfilled/);
  });

  it.each([
    [
      "destination type",
      { destination: s3Destination({ type: "Postgres", config: { host: "h", database: "d" } }) },
    ],
    ["model", { model: "persons" as const }],
  ])("refuses a %s change without --force and replaces with it", (what, overrides) => {
    const live = liveBatchExport();
    const refused = planOne({ batchExports: [desiredBatchExport(overrides)] }, { batchExports: [live] });
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0]?.message).toContain(
      what === "model" ? "model from events to persons" : "destination.type from S3 to Postgres",
    );
    expect(refused.errors[0]?.message).toContain("--force");
    const forced = planOne(
      { batchExports: [desiredBatchExport(overrides)] },
      { batchExports: [live] },
      { force: true },
    );
    expect(forced.errors).toEqual([]);
    expect(steps(forced.plan.actions)).toEqual([`create:${NAME}`, `delete:${NAME}`]);
    expect(forced.plan.actions[1]?.object.id).toBe(live.id);
    expect(forced.plan.actions[0]?.warnings[0]).toMatch(/replaces export/);
  });

  it.each([
    [true, [`delete:${NAME}`]],
    [false, []],
  ])("deletes a tombstone (live: %s)", (isLive, expected) => {
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ deleted: true })] },
      { batchExports: isLive ? [liveBatchExport()] : [] },
    );
    expect(steps(plan.actions)).toEqual(expected);
  });

  it("refuses a pinned id that is not live instead of creating duplicates forever", () => {
    const { plan, errors } = planOne({ batchExports: [desiredBatchExport({ id: "gone" })] }, {});
    expect(plan.actions).toEqual([]);
    expect(errors[0]?.message).toMatch(/pinned id gone is not live/);
  });

  it("renames through an id pin", () => {
    const live = liveBatchExport({ name: "old" });
    const { plan } = planOne(
      { batchExports: [desiredBatchExport({ id: live.id })] },
      { batchExports: [live] },
    );
    expect(plan.actions.map((a) => a.changes)).toEqual([[{ path: "name", before: "old", after: NAME }]]);
  });

  it("shows a changed HogQL query as a unified diff", () => {
    const live = liveBatchExport({ hogql_query: "SELECT event FROM events" });
    const desired = desiredBatchExport({ hogql_query: "SELECT event, timestamp FROM events\n" });
    const { plan } = planOne({ batchExports: [desired] }, { batchExports: [live] });
    expect(plan.actions[0]?.changes[0]?.diff).toContain("+SELECT event, timestamp FROM events");
  });

  describe("integrations", () => {
    const config = { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" };
    const desired = (integration?: number) =>
      desiredBatchExport({
        name: "lake",
        destination: {
          type: "Databricks",
          config,
          secrets: {},
          ...(integration === undefined ? {} : { integration }),
        },
      });
    const live = (integration: number | null) =>
      liveBatchExport({ name: "lake", destination: { type: "Databricks", config, integration } });

    it("creates with the integration, sent as integration_id and shown as destination.integration", () => {
      const { plan } = planOne({ batchExports: [desired(7)] }, {});
      expect(steps(plan.actions)).toEqual(["create:lake"]);
      expect(plan.actions[0]?.after?.destination).toEqual({ type: "Databricks", config, integration_id: 7 });
      expect(plan.actions[0]?.changes).toContainEqual({ path: "destination.integration", after: 7 });
    });

    it("plans nothing when the live integration is the declared one", () => {
      expect(planOne({ batchExports: [desired(7)] }, { batchExports: [live(7)] }).plan.actions).toEqual([]);
    });

    it.each([
      ["another integration", 3],
      ["no integration", null],
    ])("updates a destination with %s to the declared one", (_label, current) => {
      const { plan } = planOne({ batchExports: [desired(7)] }, { batchExports: [live(current)] });
      expect(steps(plan.actions)).toEqual(["update:lake"]);
      const update = plan.actions[0];
      expect(update?.changes).toEqual([{ path: "destination.integration", before: current, after: 7 }]);
      // The newest service answers 500 to a destination without config: an empty one is always sent.
      expect(update?.after).toEqual({ destination: { type: "Databricks", config: {}, integration_id: 7 } });
      expect(update?.before).toEqual({ destination: { integration: current } });
    });

    it("leaves the integration alone when none is declared", () => {
      const s3 = liveBatchExport({ destination: { ...liveBatchExport().destination, integration: 9 } });
      expect(planOne({ batchExports: [desiredBatchExport()] }, { batchExports: [s3] }).plan.actions).toEqual(
        [],
      );
    });
  });
});
