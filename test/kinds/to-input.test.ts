import { describe, expect, it } from "vitest";
import { SecretValue } from "../../src/config/secret.js";
import type {
  BatchExport,
  DesiredBatchExport,
  DesiredDestination,
} from "../../src/kinds/batch-export/index.js";
import { batchExportItem } from "../../src/kinds/batch-export/pull.js";
import type { DesiredDashboard } from "../../src/kinds/dashboard/index.js";
import { dashboardItem } from "../../src/kinds/dashboard/pull.js";
import { KINDS } from "../../src/kinds/index.js";
import { buildPlan } from "../../src/plan/build.js";
import { escapeItem } from "../../src/pull/escape.js";
import {
  desiredProject,
  liveBatchExport,
  liveCollaborator,
  liveDashboard,
  liveProject,
  options,
  sharingConfig,
  source,
} from "../builders.js";

/** A minimal stand-in for src/config's normalisation of the YAML-level input pull writes. */
function dashboardFromInput(input: Record<string, unknown>): DesiredDashboard {
  const levels: Record<string, 21 | 37> = { everyone: 21, only_collaborators: 37 };
  const d: DesiredDashboard = {
    kind: "dashboard",
    name: String(input.name),
    deleted: false,
    source: source(),
  };
  if (input.id !== undefined) d.id = input.id as number;
  if (input.description !== undefined) d.description = input.description as string;
  if (input.pinned !== undefined) d.pinned = input.pinned as boolean;
  if (input.tags !== undefined) d.tags = input.tags as string[];
  if (input.restriction_level !== undefined) d.restriction_level = levels[input.restriction_level as string];
  if (input.collaborators !== undefined) {
    d.collaborators = (input.collaborators as { user_uuid?: string; email?: string; level: string }[]).map(
      (c) => {
        expect(c.level).toBe("can_edit");
        const who = c.email !== undefined ? { email: c.email } : { user_uuid: String(c.user_uuid) };
        return { ...who, level: 37, source: source() };
      },
    );
  }
  if (input.sharing !== undefined) d.sharing = input.sharing as { enabled: boolean };
  return d;
}

function splitSecrets(config: Record<string, unknown>, secrets: DesiredDestination["secrets"], prefix = "") {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    const ref = typeof value === "string" ? /^\$\{([A-Z0-9_]+)\}$/.exec(value) : null;
    if (ref?.[1]) secrets[path] = new SecretValue(value as string, [ref[1]], "v");
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      out[key] = splitSecrets(value as Record<string, unknown>, secrets, path);
    } else out[key] = value;
  }
  return out;
}

function exportFromInput(input: Record<string, unknown>): DesiredBatchExport {
  const d = { kind: "batch_export", deleted: false, source: source(), ...input } as DesiredBatchExport;
  const destination = input.destination as {
    type: DesiredDestination["type"];
    config: Record<string, unknown>;
    integration?: number;
  };
  const secrets: DesiredDestination["secrets"] = {};
  d.destination = { type: destination.type, config: splitSecrets(destination.config, secrets), secrets };
  if (destination.integration !== undefined) d.destination.integration = destination.integration;
  return d;
}

describe("toInput (pull)", () => {
  it("writes only non-default dashboard fields with symbolic levels and collaborators by email, and round-trips", () => {
    const uuid = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f01";
    const live = liveDashboard({
      id: 42,
      description: "d\n",
      pinned: true,
      tags: ["KPI"],
      restriction_level: 37,
    });
    const extras = { collaborators: [liveCollaborator(42, uuid)], sharing: sharingConfig(true) };
    const input = dashboardItem({ ...live, is_shared: true }, extras.collaborators);
    expect(input).toEqual({
      name: "Weekly KPIs",
      id: 42,
      description: "d\n",
      pinned: true,
      tags: ["kpi"],
      restriction_level: "only_collaborators",
      collaborators: [{ email: "0190f1d2@example.com", level: "can_edit" }],
      sharing: { enabled: true },
    });
    const { plan } = buildPlan(
      KINDS,
      [desiredProject({ dashboards: [dashboardFromInput(input)] })],
      [
        liveProject({
          dashboards: [live],
          collaborators: { 42: extras.collaborators },
          sharing: { 42: extras.sharing },
        }),
      ],
      options(),
    );
    expect(plan.actions).toEqual([]);
  });

  it("writes every managed field, defaults included, so later UI edits show up as drift", () => {
    const input = dashboardItem(liveDashboard({ id: 1, name: "Plain", description: "" }));
    expect(input).toEqual({
      name: "Plain",
      id: 1,
      description: "",
      pinned: false,
      tags: [],
      restriction_level: "everyone",
      sharing: { enabled: false },
    });
  });

  const exports: [string, Partial<BatchExport>, string[]][] = [
    [
      "S3",
      {
        paused: true,
        start_at: "2026-01-01T00:00:00.000000+00:00",
        filters: [{ key: "$browser", type: "event" }],
      },
      ["EVENTS_TO_S3_AWS_ACCESS_KEY_ID", "EVENTS_TO_S3_AWS_SECRET_ACCESS_KEY"],
    ],
    [
      "Redshift",
      {
        name: "warehouse",
        model: "persons",
        destination: {
          type: "Redshift",
          config: { host: "h", port: "5439", copy_inputs: { s3_bucket: "b", authorization: { x: 1 } } },
        },
      },
      [
        "WAREHOUSE_USER",
        "WAREHOUSE_PASSWORD",
        "WAREHOUSE_COPY_INPUTS_AUTHORIZATION_AWS_ACCESS_KEY_ID",
        "WAREHOUSE_COPY_INPUTS_AUTHORIZATION_AWS_SECRET_ACCESS_KEY",
      ],
    ],
    [
      "HTTP",
      { name: "h", destination: { type: "HTTP", config: { url: "https://us.i.posthog.com/batch/" } } },
      ["H_TOKEN"],
    ],
  ];

  it.each(exports)(
    "writes a %s export with secret placeholders, and round-trips",
    (_type, overrides, expected) => {
      const live = liveBatchExport(overrides);
      const { item, variables } = batchExportItem(live);
      const input = escapeItem(item) as Record<string, unknown>;
      expect(variables).toEqual(expected);
      const config = (input.destination as { config: Record<string, unknown> }).config;
      expect(JSON.stringify(config)).toContain(`\${${expected[0]}}`);
      expect(input.id).toBe(live.id);
      const desired = exportFromInput(input);
      expect(Object.keys(desired.destination?.secrets ?? {}).length).toBe(expected.length);
      const { plan, errors } = buildPlan(
        KINDS,
        [desiredProject({ batchExports: [desired] })],
        [liveProject({ batchExports: [live] })],
        options(),
      );
      expect(errors).toEqual([]);
      expect(plan.actions).toEqual([]);
    },
  );

  it("writes the live integration as destination.integration, and round-trips", () => {
    const live = liveBatchExport({
      name: "lake",
      destination: {
        type: "Databricks",
        config: { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" },
        integration: 7,
      },
    });
    const { item, variables } = batchExportItem(live);
    const input = escapeItem(item) as Record<string, unknown>;
    expect(variables).toEqual([]);
    expect(input.destination).toEqual({
      type: "Databricks",
      integration: 7,
      config: { http_path: "/sql/1.0/w", catalog: "main", schema: "ph", table_name: "events" },
    });
    const { plan, errors } = buildPlan(
      KINDS,
      [desiredProject({ batchExports: [exportFromInput(input)] })],
      [liveProject({ batchExports: [live] })],
      options(),
    );
    expect(errors).toEqual([]);
    expect(plan.actions).toEqual([]);
  });

  it("writes no integration when the live destination has none", () => {
    const { item: input } = batchExportItem(
      liveBatchExport({ destination: { type: "NoOp", config: {}, integration: null } }),
    );
    expect(input.destination).toEqual({ type: "NoOp", config: {} });
  });

  it("writes the start instant compactly", () => {
    const live = liveBatchExport({ start_at: "2026-01-01T00:00:00.000000+00:00", model: null });
    const { item: input } = batchExportItem(live);
    expect(input.start_at).toBe("2026-01-01T00:00:00Z");
    // A null model is the service's default, events; paused is written even when false.
    expect(input.model).toBe("events");
    expect(input.paused).toBe(false);
  });
});
