import { describe, expect, it } from "vitest";
import type {
  BatchExport,
  DesiredBatchExport,
  DesiredDestination,
  LiveBatchExports,
} from "../../src/kinds/batch-export/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { buildPlan } from "../../src/plan/build.js";
import type { Action } from "../../src/plan/types.js";
import {
  desiredBatchExport,
  desiredProject,
  liveBatchExport,
  liveProject,
  options,
  SECRET_VALUE,
  s3Destination,
  secret,
  source,
} from "../builders.js";
import { planOne, steps } from "./helpers.js";

const batchExportKind = KINDS.find((k) => k.name === "batch_export");
/** What apply sends for an action: its changed fields with what it `sends` besides (plan format 2). */
const body = (action: Action | undefined) =>
  action === undefined
    ? undefined
    : batchExportKind?.requestBody(action, { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "key" });

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
    expect(update?.after).toEqual({
      interval: "day",
      destination: { config: { bucket_name: "new-bucket" } },
    });
    expect(body(update)).toEqual({
      interval: "day",
      destination: {
        type: "S3",
        config: { bucket_name: "new-bucket", aws_access_key_id: "id", aws_secret_access_key: "key" },
      },
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
      `the paused gap since 2026-02-20T08:00:00Z (9d ago) will not be exported; to export it, run: posthog-gitops backfill ${NAME} --start 2026-02-20T08:00:00Z --end 2026-03-01T12:00:00Z`,
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
    expect(plan.actions[0]?.after).toEqual({ paused: false });
    expect(plan.actions[0]?.sends).toEqual({ backfill: true });
    expect(body(plan.actions[0])).toEqual({ backfill: true });
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

  describe("a replacement whose delete failed", () => {
    const pg = { type: "Postgres" as const, config: { host: "h", database: "d" } };
    const postgres = { destination: s3Destination(pg) };
    const desired = desiredBatchExport(postgres);
    /** The old S3 export and the new Postgres one a replacement created a day later. */
    const pair = () => {
      const old = liveBatchExport({ created_at: "2026-01-02T00:00:00Z" });
      const replacement = liveBatchExport({
        created_at: "2026-01-03T00:00:00Z",
        destination: pg,
      });
      return { old, replacement };
    };

    it("plans only the delete of the old export, with --force", () => {
      const { old, replacement } = pair();
      const { plan, errors } = planOne(
        { batchExports: [desired] },
        { batchExports: [replacement, old] },
        { force: true },
      );
      expect(errors).toEqual([]);
      expect(steps(plan.actions)).toEqual([`delete:${NAME}`]);
      expect(plan.actions[0]?.object.id).toBe(old.id);
      expect(plan.actions[0]?.warnings.at(-1)).toBe(
        `export ${old.id} (destination.type S3) is what the replacement by export ${replacement.id} left behind when its delete failed`,
      );
    });

    it("also updates the new export where it differs from the file, and prune leaves the pair alone", () => {
      const { old, replacement } = pair();
      const { plan, errors } = planOne(
        { batchExports: [desiredBatchExport({ ...postgres, interval: "day" })] },
        { batchExports: [old, replacement] },
        { force: true, prune: true },
      );
      expect(errors).toEqual([]);
      expect(steps(plan.actions)).toEqual([`update:${NAME}`, `delete:${NAME}`]);
      expect(plan.actions.map((a) => a.object.id)).toEqual([replacement.id, old.id]);
    });

    it("without --force: one error naming both ids and the flag, nothing planned", () => {
      const { old, replacement } = pair();
      const { plan, errors } = planOne({ batchExports: [desired] }, { batchExports: [replacement, old] });
      expect(plan.actions).toEqual([]);
      expect(errors.map((e) => e.message)).toEqual([
        `batch export "${NAME}": 2 live objects have this name (ids ${replacement.id}, ${old.id}): export ${old.id} (destination.type S3) is what the replacement by export ${replacement.id} left behind when its delete failed; rerun with --force to delete it`,
      ]);
    });

    it.each([
      ["both have the declared type", () => [liveBatchExport({ destination: pg }), pair().replacement]],
      [
        "the one with the declared type is the older",
        () => [liveBatchExport({ created_at: "2026-01-04T00:00:00Z" }), pair().replacement],
      ],
      ["neither has the declared type", () => [liveBatchExport(), liveBatchExport({ model: "persons" })]],
    ])("is not recognised when %s: the usual request for an id pin", (_what, live) => {
      const { plan, errors } = planOne(
        { batchExports: [desired] },
        { batchExports: live() },
        { force: true },
      );
      expect(plan.actions).toEqual([]);
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/2 live objects have this name \(ids .*\); add an `id:` pin/),
      ]);
    });

    it("is not recognised with two older exports of the name: a replacement leaves one behind", () => {
      const { old, replacement } = pair();
      const other = liveBatchExport({ model: "persons", created_at: "2026-01-02T00:00:00Z" });
      const { plan, errors } = planOne(
        { batchExports: [desired] },
        { batchExports: [replacement, old, other] },
        { force: true },
      );
      expect(plan.actions).toEqual([]);
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/3 live objects have this name \(ids .*\); add an `id:` pin/),
      ]);
    });
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
      expect(update?.after).toEqual({ destination: { integration: 7 } });
      expect(body(update)).toEqual({ destination: { type: "Databricks", config: {}, integration_id: 7 } });
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

describe("batch exports on the newest service", () => {
  const aws = (overrides: Partial<DesiredDestination> = {}): DesiredDestination => ({
    type: "AwsS3",
    config: { bucket_name: "acme", region: "us-east-1", prefix: "p/" },
    secrets: {},
    integration: 1,
    integrationSource: source(30),
    ...overrides,
  });
  const INTEGRATIONS = [
    { id: 1, kind: "aws-s3", display_name: "prod (AWS account 1234)" },
    { id: 2, kind: "s3-compatible", display_name: "r2" },
    { id: 4, kind: "snowflake", display_name: "sf" },
    { id: 7, kind: "databricks", display_name: "7" },
  ];
  /** Plans with the project's integrations read, as the read stage does when an export names one. */
  function planWith(desired: DesiredBatchExport[], live: BatchExport[] = [], opts = {}) {
    const liveState = liveProject({ batchExports: live });
    (liveState.kinds.batch_export as LiveBatchExports).integrations = INTEGRATIONS;
    return buildPlan(KINDS, [desiredProject({ batchExports: desired })], [liveState], options(opts));
  }
  const liveAws = (overrides: Partial<BatchExport> = {}) =>
    liveBatchExport({
      destination: {
        type: "AwsS3",
        integration: 1,
        config: { bucket_name: "acme", region: "us-east-1", prefix: "p/", legacy_parquet_extension: false },
      },
      timezone: "UTC",
      offset_day: null,
      offset_hour: null,
      ...overrides,
    });

  it("checks the named integration exists and fits the type, at the integration's line", () => {
    const unknown = planWith([desiredBatchExport({ destination: aws({ integration: 9 }) })]);
    expect(unknown.plan.actions).toEqual([]);
    expect(unknown.errors).toEqual([
      {
        message:
          'batch export "events-to-s3": destination.integration 9 is not an integration of project 12345; its aws-s3 integration: 1 "prod (AWS account 1234)"',
        source: source(30),
      },
    ]);
    const wrong = planWith([desiredBatchExport({ destination: aws({ type: "S3Compatible" }) })]);
    expect(wrong.errors[0]?.message).toBe(
      'batch export "events-to-s3": destination.integration 1 ("prod (AWS account 1234)") is an aws-s3 integration, but destination type S3Compatible needs an s3-compatible integration; its s3-compatible integration: 2 "r2"',
    );
    const none = planWith([
      desiredBatchExport({
        destination: { type: "BigQuery", config: {}, secrets: {}, integration: 1 },
      }),
    ]);
    expect(none.errors[0]?.message).toMatch(
      /needs a google-cloud-service-account integration; project 12345 has no google-cloud-service-account integration: create one in PostHog/,
    );
  });

  it("creates with integration_id in the body and destination.integration as the change", () => {
    const { plan, errors } = planWith([desiredBatchExport({ destination: aws() })]);
    expect(errors).toEqual([]);
    expect(plan.actions[0]?.after?.destination).toEqual({
      type: "AwsS3",
      config: { bucket_name: "acme", region: "us-east-1", prefix: "p/" },
      integration_id: 1,
    });
    expect(plan.actions[0]?.warnings).toEqual([]);
  });

  it.each([
    [
      "an AwsS3 export without an integration",
      aws({ integration: undefined }),
      /the service creates a AwsS3 export only with an integration: create an aws-s3 integration in PostHog and declare destination: \{type: AwsS3, integration: <id of an aws-s3 integration>, config: \{bucket_name: acme, region: us-east-1, prefix: p\/\}\}/,
    ],
    [
      "a Databricks export without its required keys",
      { type: "Databricks" as const, config: { catalog: "main" }, secrets: {}, integration: 7 },
      /creating a Databricks export needs destination.config.http_path, destination.config.schema, destination.config.table_name/,
    ],
    [
      "an HTTP export to another URL",
      { type: "HTTP" as const, config: { url: "https://example.com/in" }, secrets: { token: secret("T") } },
      /accepts only https:\/\/us\.i\.posthog\.com\/batch\/ or https:\/\/eu\.i\.posthog\.com\/batch\/ as an HTTP destination's URL, not https:\/\/example\.com\/in/,
    ],
    [
      "legacy_parquet_extension: true",
      aws({ config: { bucket_name: "a", region: "r", prefix: "p", legacy_parquet_extension: true } }),
      /legacy_parquet_extension: true is refused on a new export/,
    ],
  ])("refuses to create %s", (_label, destination, message) => {
    const { plan, errors } = planWith([
      desiredBatchExport({ destination: destination as DesiredDestination }),
    ]);
    expect(plan.actions).toEqual([]);
    expect(errors.map((e) => e.message).join("\n")).toMatch(message);
  });

  it.each([
    [
      "legacy S3",
      s3Destination(),
      /refuses new S3 exports .*declare destination: \{type: AwsS3, integration: <id of an aws-s3 integration>, config: \{bucket_name: acme-analytics, region: us-east-1, prefix: posthog\/\}\}$/,
    ],
    [
      "legacy S3 with an endpoint",
      s3Destination({
        config: { bucket_name: "b", region: "auto", prefix: "p", endpoint_url: "https://r2.example" },
      }),
      /declare destination: \{type: S3Compatible, integration: <id of an s3-compatible integration>, config: \{bucket_name: b, region: auto, prefix: p\}\}$/,
    ],
    [
      "Snowflake with inline credentials",
      {
        type: "Snowflake" as const,
        config: { account: "xy", database: "d", warehouse: "w", schema: "s" },
        secrets: { user: secret("U"), password: secret("P") },
      },
      /refuses new Snowflake exports without an integration .*declare destination: \{type: Snowflake, integration: <id of a snowflake integration>, config: \{database: d, warehouse: w, schema: s\}\}$/,
    ],
    [
      "Postgres with inline credentials",
      { type: "Postgres" as const, config: { host: "h", database: "d" }, secrets: { user: secret("U") } },
      /Create a postgresql integration in PostHog .*\{type: Postgres, integration: <id of a postgresql integration>, config: \{host: h, database: d\}\}$/,
    ],
  ])("plans a create in the %s form with a warning and the integration form", (_l, destination, warning) => {
    const { plan, errors } = planWith([
      desiredBatchExport({ destination: destination as DesiredDestination }),
    ]);
    expect(errors).toEqual([]);
    expect(steps(plan.actions)).toEqual([`create:${NAME}`]);
    expect(plan.actions[0]?.warnings).toHaveLength(1);
    expect(plan.actions[0]?.warnings[0]).toMatch(warning);
  });

  it("compares a legacy S3 declaration with the AwsS3 export the service migrated it to", () => {
    const live = liveAws({
      destination: {
        ...liveAws().destination,
        config: { bucket_name: "acme-analytics", region: "us-east-1", prefix: "posthog/" },
      },
    });
    const same = planWith([desiredBatchExport()], [live], { rotateSecrets: true });
    expect(same.errors).toEqual([]);
    expect(same.plan.actions).toEqual([]);
    expect(same.plan.notes.map((n) => n.message)).toEqual([
      "declared as a legacy S3 export with inline keys, but the service migrated it to AwsS3 with integration 1, which holds its credentials now; declare destination: {type: AwsS3, integration: 1, config: {bucket_name: acme-analytics, region: us-east-1, prefix: posthog/}}",
    ]);
    // A real change is an update of the AwsS3 export: its type, its integration, no inline keys.
    const moved = planWith(
      [
        desiredBatchExport({
          destination: s3Destination({
            config: { bucket_name: "acme-analytics", region: "us-east-1", prefix: "v2/" },
          }),
        }),
      ],
      [live],
    );
    expect(body(moved.plan.actions[0])).toEqual({
      destination: { type: "AwsS3", config: { prefix: "v2/" }, integration_id: 1 },
    });
  });

  it("keeps config keys an integration now holds out of the comparison, with a note", () => {
    const live = liveBatchExport({
      destination: {
        type: "Snowflake",
        integration: 4,
        config: { database: "d", warehouse: "w", schema: "s" },
      },
    });
    const desired = desiredBatchExport({
      destination: {
        type: "Snowflake",
        config: { account: "xy", database: "d", warehouse: "w", schema: "s" },
        secrets: { password: secret("P") },
      },
    });
    const { plan, errors } = planWith([desired], [live], { rotateSecrets: true });
    expect(errors).toEqual([]);
    expect(plan.actions).toEqual([]);
    expect(plan.notes[0]?.message).toBe(
      "destination.config.account now live in integration 4: not compared; remove them from the file",
    );
  });

  it("sends schedule offsets with their interval, both of a weekly export's", () => {
    const live = liveAws({ interval: "week", offset_day: 0, offset_hour: 5 });
    const { plan } = planWith(
      [desiredBatchExport({ interval: "week", offset_day: 3, destination: undefined })],
      [live],
    );
    expect(plan.actions[0]?.changes).toEqual([{ path: "offset_day", before: 0, after: 3 }]);
    expect(plan.actions[0]?.after).toEqual({ offset_day: 3 });
    expect(body(plan.actions[0])).toEqual({ interval: "week", offset_day: 3, offset_hour: 5 });
    const daily = planWith(
      [
        desiredBatchExport({
          interval: "day",
          offset_hour: 7,
          timezone: "Europe/Berlin",
          destination: undefined,
        }),
      ],
      [liveAws({ interval: "week", offset_day: 2, offset_hour: 5 })],
    );
    expect(body(daily.plan.actions[0])).toEqual({
      interval: "day",
      offset_hour: 7,
      timezone: "Europe/Berlin",
    });
  });

  it("plans nothing for the schedule defaults the service echoes; an older service's silence is a note", () => {
    const desired = desiredBatchExport({
      interval: "week",
      timezone: null,
      offset_day: 0,
      offset_hour: 0,
      destination: undefined,
    });
    const echoed = planWith(
      [desired],
      [liveAws({ interval: "week", timezone: "UTC", offset_day: 0, offset_hour: 0 })],
    );
    expect(echoed.plan.actions).toEqual([]);
    const older = liveBatchExport({ interval: "week" });
    const silent = planWith([desired], [older]);
    expect(silent.plan.actions).toEqual([]);
    expect(silent.plan.notes[0]?.message).toBe(
      "the service does not report timezone, offset_day, offset_hour (an older service, which ignores them): not compared",
    );
  });

  it("refuses offsets and filters the live interval and model do not take", () => {
    const { errors } = planWith(
      [
        desiredBatchExport({ offset_hour: 3, destination: undefined }),
        desiredBatchExport({
          name: "people",
          model: undefined,
          filters: [{ key: "k", type: "person" }],
          destination: undefined,
        }),
      ],
      [liveAws(), liveAws({ name: "people", model: "persons" })],
    );
    expect(errors.map((e) => e.message)).toEqual([
      `batch export "${NAME}": offset_hour applies to daily and weekly exports only (its interval is hour)`,
      'batch export "people": filters need model: events (its model is persons)',
    ]);
  });

  it("never asks for an unpause backfill without last_paused_at: it would start at the earliest data", () => {
    const live = liveAws({
      paused: true,
      last_paused_at: null,
      interval: "day",
      created_at: "2026-02-20T10:00:00Z",
    });
    const { plan } = planWith(
      [
        desiredBatchExport({
          paused: false,
          backfill_on_unpause: true,
          interval: "day",
          destination: undefined,
        }),
      ],
      [live],
    );
    expect(plan.actions.map((a) => [a.action, a.after])).toEqual([["unpause", { paused: false }]]);
    expect(plan.actions[0]?.warnings[0]).toMatch(
      /no backfill is requested\. To export what it missed, run: posthog-gitops backfill events-to-s3 --start 2026-02-20 --end 2026-03-01$/,
    );
  });
});
