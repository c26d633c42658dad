/**
 * Builders for desired and live objects, shared by the planner, handler, apply and command tests.
 * Each takes overrides; defaults describe a small, valid, in-sync object.
 */
import { SecretValue } from "../src/config/secret.js";
import type { DesiredProject, SourceRef } from "../src/config/types.js";
import type {
  BatchExport,
  DesiredBatchExport,
  DesiredDestination,
  LiveBatchExports,
} from "../src/kinds/batch-export/index.js";
import type {
  Collaborator,
  DashboardBasic,
  DesiredCollaborator,
  DesiredDashboard,
  LiveDashboards,
  SharingConfiguration,
} from "../src/kinds/dashboard/index.js";
import type { Features, LiveProject } from "../src/plan/types.js";
import type { UserBasic } from "../src/service/types.js";

export const PROJECT = 12345;
/** A distinctive secret value: tests assert it never shows up in a plan or an output. */
export const SECRET_VALUE = "s3cr3t-DO-NOT-PRINT-7f3a9c";

let nextId = 1000;
export function nextDashboardId(): number {
  nextId += 1;
  return nextId;
}

export function source(line = 1, file = "posthog/project.yaml"): SourceRef {
  return { file, line, column: 5 };
}

export function secret(variable: string, value: string | undefined = SECRET_VALUE): SecretValue {
  return new SecretValue(`\${${variable}}`, [variable], value);
}

export function user(uuid: string, overrides: Partial<UserBasic> = {}): UserBasic {
  return { id: 1, uuid, first_name: "Ada", email: `${uuid.slice(0, 8)}@example.com`, ...overrides };
}

export function desiredCollaborator(user_uuid: string): DesiredCollaborator {
  return { user_uuid, level: 37, source: source(10) };
}

export function desiredDashboard(overrides: Partial<DesiredDashboard> = {}): DesiredDashboard {
  return { kind: "dashboard", name: "Weekly KPIs", deleted: false, source: source(), ...overrides };
}

export function liveDashboard(overrides: Partial<DashboardBasic> = {}): DashboardBasic {
  const restriction = overrides.restriction_level ?? 21;
  return {
    id: overrides.id ?? nextDashboardId(),
    name: "Weekly KPIs",
    description: "",
    pinned: false,
    created_at: "2026-01-02T03:04:05.123456Z",
    created_by: user("0190f1d2-0000-7000-8000-000000000001"),
    last_accessed_at: null,
    is_shared: false,
    deleted: false,
    creation_mode: "default",
    tags: [],
    restriction_level: restriction,
    effective_restriction_level: restriction,
    effective_privilege_level: 37,
    user_access_level: "editor",
    access_control_version: restriction > 21 ? "v1" : "v2",
    last_refresh: null,
    team_id: PROJECT,
    ...overrides,
  };
}

export function liveCollaborator(dashboardId: number, userUuid: string, level: 21 | 37 = 37): Collaborator {
  return {
    id: `c-${userUuid}`,
    dashboard_id: dashboardId,
    user: user(userUuid),
    level,
    added_at: "2026-01-03T00:00:00Z",
    updated_at: "2026-01-03T00:00:00Z",
  };
}

export function sharingConfig(enabled: boolean): SharingConfiguration {
  return { created_at: enabled ? "2026-01-03T00:00:00Z" : null, enabled, access_token: "tok-server-owned" };
}

export function s3Destination(overrides: Partial<DesiredDestination> = {}): DesiredDestination {
  return {
    type: "S3",
    config: { bucket_name: "acme-analytics", region: "us-east-1", prefix: "posthog/" },
    secrets: {
      aws_access_key_id: secret("AWS_ACCESS_KEY_ID", "AKIA-EXAMPLE-ID"),
      aws_secret_access_key: secret("AWS_SECRET_ACCESS_KEY"),
    },
    ...overrides,
  };
}

export function desiredBatchExport(overrides: Partial<DesiredBatchExport> = {}): DesiredBatchExport {
  return {
    kind: "batch_export",
    name: "events-to-s3",
    deleted: false,
    model: "events",
    interval: "hour",
    destination: s3Destination(),
    source: source(20),
    ...overrides,
  };
}

let nextExport = 0;
export function liveBatchExport(overrides: Partial<BatchExport> = {}): BatchExport {
  nextExport += 1;
  return {
    id: `0190f1d2-aaaa-7000-8000-${String(nextExport).padStart(12, "0")}`,
    team_id: PROJECT,
    name: "events-to-s3",
    model: "events",
    destination: {
      type: "S3",
      config: { bucket_name: "acme-analytics", region: "us-east-1", prefix: "posthog/" },
    },
    interval: "hour",
    paused: false,
    created_at: "2026-01-02T00:00:00Z",
    last_updated_at: "2026-01-02T00:00:00Z",
    last_paused_at: null,
    start_at: null,
    end_at: null,
    latest_runs: [],
    schema: null,
    filters: null,
    ...overrides,
  };
}

/** What a test says about a desired project: the declared objects per kind, in the old flat shape. */
export interface DesiredProjectSpec {
  project?: number | undefined;
  files?: string[];
  dashboards?: DesiredDashboard[];
  batchExports?: DesiredBatchExport[];
  ignore?: { dashboards?: string[]; batch_exports?: string[] };
  manages?: { dashboards?: boolean; batch_exports?: boolean };
}

export function desiredProject(spec: DesiredProjectSpec = {}): DesiredProject {
  const manages = { dashboards: true, batch_exports: true, ...spec.manages };
  return {
    project: "project" in spec ? spec.project : PROJECT,
    files: spec.files ?? ["posthog/project.yaml"],
    ignore: { dashboard: spec.ignore?.dashboards ?? [], batch_export: spec.ignore?.batch_exports ?? [] },
    manages: [
      ...(manages.dashboards ? ["dashboard"] : []),
      ...(manages.batch_exports ? ["batch_export"] : []),
    ],
    objects: { dashboard: spec.dashboards ?? [], batch_export: spec.batchExports ?? [] },
  };
}

/** What a test says about a live project, in the old flat shape. */
export interface LiveProjectSpec {
  project?: number;
  dashboards?: DashboardBasic[];
  collaborators?: LiveDashboards["collaborators"];
  sharing?: LiveDashboards["sharing"];
  tiles?: LiveDashboards["tiles"];
  batchExports?: BatchExport[];
  features?: Features;
}

export function liveProject(spec: LiveProjectSpec = {}): LiveProject {
  const dashboards: LiveDashboards = {
    objects: spec.dashboards ?? [],
    collaborators: spec.collaborators ?? {},
    sharing: spec.sharing ?? {},
    tiles: spec.tiles ?? {},
  };
  const batchExports: LiveBatchExports = { objects: spec.batchExports ?? [] };
  const live: LiveProject = {
    project: spec.project ?? PROJECT,
    kinds: { dashboard: dashboards, batch_export: batchExports },
  };
  if (spec.features) live.features = spec.features;
  return live;
}

export const NOW = new Date("2026-03-01T12:00:00.000Z");

export function options(overrides: Partial<import("../src/plan/context.js").BuildOptions> = {}) {
  return { prune: false, force: false, rotateSecrets: false, now: NOW, ...overrides };
}

/** The declared dashboards of a loaded project. */
export function dashboardsOf(project: DesiredProject | undefined): DesiredDashboard[] {
  return (project?.objects.dashboard ?? []) as DesiredDashboard[];
}

/** The declared batch exports of a loaded project. */
export function exportsOf(project: DesiredProject | undefined): DesiredBatchExport[] {
  return (project?.objects.batch_export ?? []) as DesiredBatchExport[];
}
