/**
 * A synthetic fleet for the benchmarks: the YAML files that declare it and the emulator seed records
 * that match them exactly, so a no-op plan can be measured without first applying the whole fleet.
 * Exports are in the newest service's form: AwsS3 naming the default seed's aws-s3 integration, which
 * holds the credentials (no secret variables, no legacy-form warnings, and creates the newest service
 * accepts).
 * Dashboard i gets a collaborator (bob, can_edit) when i < collaborators; with `changeEvery` n > 0,
 * every nth object differs between the files and the seed (descriptions, export intervals): n = 10 is
 * a 10% change, n = 1 changes everything.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INTEGRATION_IDS } from "posthog-gitops-emulator";
import type { EmulatorState } from "./control.js";

export const PROJECT = 12345;
export const BOB = { id: 2, uuid: "0190f1d2-7b4e-7c3a-9d1f-000000000002" };
/** The default seed's aws-s3 integration of the project ("acme-prod"): every fleet export names it. */
export const AWS_S3_INTEGRATION = INTEGRATION_IDS.awsS3;
const PER_FILE = 100;
const STAMP = "2026-01-01T00:00:00.000Z";

export interface FleetSize {
  dashboards: number;
  collaborators: number;
  exports: number;
}

export const FLEET: FleetSize = { dashboards: 1000, collaborators: 200, exports: 200 };

const dashboardName = (i: number) => `Fleet dashboard ${String(i).padStart(5, "0")}`;
const exportName = (i: number) => `fleet-export-${String(i).padStart(5, "0")}`;
const differs = (i: number, changeEvery: number) => changeEvery > 0 && i % changeEvery === 0;
const description = (i: number, changeEvery: number) =>
  `Weekly review ${i} for team ${i % 17}${differs(i, changeEvery) ? " (revised)" : ""}`;
const interval = (i: number, changeEvery: number) => (differs(i, changeEvery) ? "day" : "hour");

function dashboardYaml(i: number, size: FleetSize, changeEvery: number): string[] {
  const lines = [
    `  - name: ${dashboardName(i)}`,
    `    description: ${description(i, changeEvery)}`,
    `    tags: [fleet, team-${i % 17}]`,
  ];
  if (i < size.collaborators) {
    lines.push(
      "    restriction_level: only_collaborators",
      "    collaborators:",
      `      - user_uuid: ${BOB.uuid}`,
      "        level: can_edit",
    );
  }
  return lines;
}

function exportYaml(i: number, changeEvery: number): string[] {
  return [
    `  - name: ${exportName(i)}`,
    "    model: events",
    `    interval: ${interval(i, changeEvery)}`,
    "    paused: false",
    "    destination:",
    "      type: AwsS3",
    `      integration: ${AWS_S3_INTEGRATION}`,
    "      config:",
    "        bucket_name: acme-analytics",
    "        region: us-east-1",
    `        prefix: fleet/${i}/`,
  ];
}

/** Writes the fleet's files (100 objects per file) under `dir`. */
export function writeFleetYaml(dir: string, size: FleetSize, changeEvery = 0): void {
  mkdirSync(dir, { recursive: true });
  for (let start = 0; start < size.dashboards; start += PER_FILE) {
    const lines = [`project: ${PROJECT}`, "dashboards:"];
    for (let i = start; i < Math.min(size.dashboards, start + PER_FILE); i++) {
      lines.push(...dashboardYaml(i, size, changeEvery));
    }
    writeFileSync(join(dir, `dashboards-${start / PER_FILE}.yaml`), `${lines.join("\n")}\n`);
  }
  for (let start = 0; start < size.exports; start += PER_FILE) {
    const lines = [`project: ${PROJECT}`, "batch_exports:"];
    for (let i = start; i < Math.min(size.exports, start + PER_FILE); i++)
      lines.push(...exportYaml(i, changeEvery));
    writeFileSync(join(dir, `exports-${start / PER_FILE}.yaml`), `${lines.join("\n")}\n`);
  }
}

const uuid = (prefix: number, i: number) =>
  `${prefix.toString(16).padStart(8, "0")}-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

/** Emulator seed records matching `writeFleetYaml(dir, size)` (no change). */
export function fleetRecords(
  size: FleetSize,
): Pick<EmulatorState, "dashboards" | "batch_exports" | "collaborators" | "sharing"> {
  const dashboards = Array.from({ length: size.dashboards }, (_, i) => ({
    id: 1000 + i,
    team_id: PROJECT,
    name: dashboardName(i),
    description: description(i, 0),
    tags: ["fleet", `team-${i % 17}`],
    restriction_level: i < size.collaborators ? 37 : 21,
    created_by: 1,
  }));
  const collaborators = Array.from({ length: Math.min(size.collaborators, size.dashboards) }, (_, i) => ({
    id: uuid(0xc0, i),
    dashboard_id: 1000 + i,
    user: BOB.id,
    level: 37,
    added_at: STAMP,
    updated_at: STAMP,
  }));
  const batch_exports = Array.from({ length: size.exports }, (_, i) => ({
    id: uuid(0xbe, i),
    team_id: PROJECT,
    name: exportName(i),
    model: "events",
    interval: interval(i, 0),
    paused: false,
    destination: {
      type: "AwsS3",
      integration: AWS_S3_INTEGRATION,
      config: { bucket_name: "acme-analytics", region: "us-east-1", prefix: `fleet/${i}/` },
    },
  }));
  return { dashboards, collaborators, batch_exports, sharing: [] };
}

/**
 * Requests a no-op plan needs at least (SPEC §6): list pages of 100, one collaborators read each, and
 * the project's integrations (one page) when exports name one, to check that it exists and fits.
 */
export function minimumReads(size: FleetSize): number {
  return (
    Math.max(1, Math.ceil(size.dashboards / 100)) +
    Math.max(1, Math.ceil(size.exports / 100)) +
    Math.min(size.collaborators, size.dashboards) +
    (size.exports > 0 ? 1 : 0)
  );
}
