import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { batchExportKind } from "../../src/kinds/batch-export/index.js";
import { dashboardKind } from "../../src/kinds/dashboard/index.js";

const batchExportBody = batchExportKind.requestBody;
const dashboardBody = dashboardKind.requestBody;

import { missingSecretVariables } from "../../src/plan/secrets.js";
import {
  desiredBatchExport,
  desiredDashboard,
  liveBatchExport,
  liveDashboard,
  s3Destination,
} from "../builders.js";
import { planOne } from "../plan/helpers.js";

const ENV = { AWS_ACCESS_KEY_ID: "AKIA-1", AWS_SECRET_ACCESS_KEY: "shh-42" };

describe("request bodies", () => {
  it("resolves secrets in a create body from the environment at that moment", () => {
    const { plan } = planOne({ batchExports: [desiredBatchExport()] }, {});
    const create = plan.actions[0];
    if (!create) throw new Error("no create");
    expect(missingSecretVariables(create.after, {})).toEqual(["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
    expect(missingSecretVariables(create.after, ENV)).toEqual([]);
    const body = batchExportBody(create, ENV);
    expect(body?.destination).toEqual({
      type: "S3",
      config: {
        bucket_name: "acme-analytics",
        region: "us-east-1",
        prefix: "posthog/",
        aws_access_key_id: "AKIA-1",
        aws_secret_access_key: "shh-42",
      },
    });
    expect(JSON.stringify(create)).not.toContain("shh-42");
  });

  it("fails clearly, naming the variable and no value, when a secret variable is missing", () => {
    const { plan } = planOne({ batchExports: [desiredBatchExport()] }, {});
    const create = plan.actions[0];
    if (!create) throw new Error("no create");
    const attempt = () => batchExportBody(create, { AWS_ACCESS_KEY_ID: "AKIA-1" });
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(
      'batch export "events-to-s3": the secret variable $AWS_SECRET_ACCESS_KEY is not set',
    );
  });

  it("builds a PATCH body with only the changed fields and the destination type", () => {
    const desired = desiredBatchExport({
      interval: "day",
      paused: true,
      destination: s3Destination({ config: { bucket_name: "b2", region: "us-east-1", prefix: "posthog/" } }),
    });
    const { plan } = planOne({ batchExports: [desired] }, { batchExports: [liveBatchExport()] });
    const [update, pause] = plan.actions;
    if (!update || !pause) throw new Error("missing actions");
    expect(batchExportBody(update, ENV)).toEqual({
      interval: "day",
      destination: {
        type: "S3",
        config: { bucket_name: "b2", aws_access_key_id: "AKIA-1", aws_secret_access_key: "shh-42" },
      },
    });
    expect(batchExportBody(pause, ENV)).toBeUndefined();
  });

  it("sends the declared integration_id in create bodies and in every destination PATCH", () => {
    const config = { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" };
    const databricks = (table: string, integration_id: number) =>
      desiredBatchExport({
        name: "lake",
        destination: {
          type: "Databricks",
          config: { ...config, table_name: table },
          secrets: {},
          integration: integration_id,
        },
      });
    const created = planOne({ batchExports: [databricks("events", 7)] }, {}).plan.actions[0];
    if (!created) throw new Error("no create");
    expect(batchExportBody(created, ENV)?.destination).toEqual({
      type: "Databricks",
      config,
      integration_id: 7,
    });
    const live = liveBatchExport({
      name: "lake",
      destination: { type: "Databricks", config, integration: 7 },
    });
    // A config change alone still names the integration: the service requires it in the PATCH.
    const moved = planOne({ batchExports: [databricks("events_v2", 7)] }, { batchExports: [live] });
    const update = moved.plan.actions[0];
    if (!update) throw new Error("no update");
    expect(batchExportBody(update, ENV)).toEqual({
      destination: { type: "Databricks", config: { table_name: "events_v2" }, integration_id: 7 },
    });
  });

  it("sends backfill on unpause only when asked", () => {
    const live = {
      batchExports: [liveBatchExport({ paused: true, last_paused_at: "2026-02-01T00:00:00Z" })],
    };
    const plain = planOne({ batchExports: [desiredBatchExport({ paused: false })] }, live).plan.actions[0];
    const backfill = planOne(
      { batchExports: [desiredBatchExport({ paused: false, backfill_on_unpause: true })] },
      live,
    ).plan.actions[0];
    if (!plain || !backfill) throw new Error("missing actions");
    expect(batchExportBody(plain, {})).toBeUndefined();
    expect(batchExportBody(backfill, {})).toEqual({ backfill: true });
  });

  it("restores with exactly {deleted: false} and soft-deletes with {deleted: true}", () => {
    const restore = planOne({ dashboards: [desiredDashboard({ id: 9, pinned: true })] }, {}).plan.actions[0];
    const soft = planOne(
      { dashboards: [desiredDashboard({ deleted: true })] },
      { dashboards: [liveDashboard()] },
    ).plan.actions[0];
    if (!restore || !soft) throw new Error("missing actions");
    expect(dashboardBody(restore, {})).toEqual({ deleted: false });
    expect(dashboardBody(soft, {})).toEqual({ deleted: true });
  });

  it("builds dashboard, collaborator and sharing bodies", () => {
    const uuid = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f01";
    const { plan } = planOne(
      {
        dashboards: [
          desiredDashboard({
            tags: ["b", "a"],
            restriction_level: 37,
            collaborators: [{ user_uuid: uuid, level: 37, source: { file: "f", line: 1, column: 1 } }],
            sharing: { enabled: true },
          }),
        ],
      },
      {},
    );
    expect(plan.actions.map((a) => dashboardBody(a, {}))).toEqual([
      { name: "Weekly KPIs", tags: ["a", "b"], restriction_level: 37 },
      { user_uuid: uuid, level: 37 },
      { enabled: true },
    ]);
  });
});
