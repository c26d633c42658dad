/**
 * The default seed: organization "Acme" (tagging, access control and advanced permissions on) with
 * projects 12345 "Production" and 12346 "Staging", users alice (admin, owner of the key `phx_emulator`),
 * bob (member, key `phx_emulator_bob`, creator of dashboard 4 only) and carol (members), dave (another
 * organization only), erin (inactive); integrations of every destination kind; sample dashboards, an
 * S3 export (AwsS3 with an integration under the newest rules, legacy S3 with inline keys under 2025)
 * and a Postgres export with inline secrets (created before integrations), runs (one Failed, one
 * Running, two older than the 7-day window), log entries and a few hundred events; feature flags and
 * a running experiment (sample-flags.ts); cohorts, actions and persons (sample-cohorts.ts). Besides `phx_emulator`, alice has one key per
 * environment of the examples (`phx_emulator_staging`, `phx_emulator_production`), and dave one of Globex.
 * Generated relative to `now` and deterministic for a given `now`.
 */

import { batchExportRecord, dashboardRecord } from "./records.js";
import {
  OLD_RUN_ID,
  POSTGRES_EXPORT_ID,
  runsAndLogs,
  S3_EXPORT_ID,
  sampleEvents,
  uuid,
} from "./sample-activity.js";
import { sampleCohorts } from "./sample-cohorts.js";
import { sampleFlags } from "./sample-flags.js";
import { defaultService, type ServiceSettings } from "./service.js";
import type { BatchExportRecord, DashboardRecord, StoreData } from "./types.js";

export { ACTION_IDS, COHORT_IDS } from "./sample-cohorts.js";
export { FLAG_IDS, SAMPLE_ENCRYPTED_PAYLOAD } from "./sample-flags.js";
export { OLD_RUN_ID, POSTGRES_EXPORT_ID, S3_EXPORT_ID };

export const ACME_ID = "0190f1d2-7b4e-7c3a-9d1f-00000000ac3e";
export const GLOBEX_ID = "0190f1d2-7b4e-7c3a-9d1f-0000000061b0";
export const USER_UUIDS = {
  alice: "0190f1d2-7b4e-7c3a-9d1f-000000000001",
  bob: "0190f1d2-7b4e-7c3a-9d1f-000000000002",
  carol: "0190f1d2-7b4e-7c3a-9d1f-000000000003",
  dave: "0190f1d2-7b4e-7c3a-9d1f-000000000004",
  erin: "0190f1d2-7b4e-7c3a-9d1f-000000000005",
} as const;

const DAY = 86_400_000;

function user(
  id: number,
  name: keyof typeof USER_UUIDS,
  orgs: StoreData["users"][number]["organizations"],
  active = true,
) {
  const first = name[0]?.toUpperCase() + name.slice(1);
  return {
    id,
    uuid: USER_UUIDS[name],
    email: `${name}@example.com`,
    first_name: first,
    last_name: "",
    is_active: active,
    organizations: orgs,
  };
}

function dashboards(): StoreData["dashboards"] {
  const text = (id: number, body: string, created_at: string) => ({
    id,
    text: { id, body, created_by: 1, last_modified_at: created_at, last_modified_by: null },
    insight_id: null,
    layouts: { sm: { x: 0, y: 0, w: 6, h: 5 } },
    color: null,
    deleted: null,
    show_description: null,
    transparent_background: null,
    filters_overrides: {},
  });
  const rows: Array<Partial<DashboardRecord> & Pick<DashboardRecord, "id" | "team_id" | "created_at">> = [
    {
      id: 1,
      team_id: 12345,
      name: "Product KPIs",
      description: "Weekly product health",
      pinned: true,
      tags: ["kpi", "product"],
      created_at: "2025-03-01T09:00:00.000Z",
      tiles: [text(1, "Activation and retention", "2025-03-01T09:00:00.000Z")],
    },
    {
      id: 2,
      team_id: 12345,
      name: "Marketing Overview",
      tags: ["marketing"],
      created_at: "2025-03-02T09:00:00.000Z",
      tiles: [text(2, "Campaigns", "2025-03-02T09:00:00.000Z")],
    },
    {
      id: 3,
      team_id: 12345,
      name: "Revenue",
      description: "Finance only",
      restriction_level: 37,
      tags: ["finance"],
      created_at: "2025-03-03T09:00:00.000Z",
    },
    {
      id: 4,
      team_id: 12345,
      name: "Onboarding Funnel",
      created_by: 2,
      filters: { date_from: "-30d" },
      created_at: "2025-03-04T09:00:00.000Z",
    },
    { id: 5, team_id: 12346, name: "Staging Smoke Tests", created_at: "2025-03-05T09:00:00.000Z" },
  ];
  return rows.map((d) => dashboardRecord({ created_by: 1, ...d }));
}

/** Integration ids of the default seed (project 12345 unless named). */
export const INTEGRATION_IDS = {
  awsS3: 1,
  s3Compatible: 2,
  postgresql: 3,
  snowflake: 4,
  bigquery: 5,
  azureBlob: 6,
  databricks: 7,
  databricksSecond: 8,
  redshift: 9,
  /** aws-s3 of project 12346 (Staging): another project's id, so "does not exist" from 12345. */
  stagingAwsS3: 10,
  /** aws-s3 of project 22222 (Globex, another organization). */
  globexAwsS3: 11,
} as const;

function integrations(): StoreData["integrations"] {
  const row = (
    id: number,
    team_id: number,
    kind: string,
    display_name: string,
    config: Record<string, unknown>,
    created_by = 1,
  ) => ({
    id,
    team_id,
    kind,
    display_name,
    config,
    created_at: `2025-02-${String(id).padStart(2, "0")}T09:00:00.000Z`,
    created_by,
    errors: "",
  });
  const role = "arn:aws:iam::123456789012:role/posthog-batch-exports";
  return [
    row(1, 12345, "aws-s3", `acme-prod (AWS role '${role}')`, { role_arn: role }),
    row(2, 12345, "s3-compatible", "r2 (access key, https://acme.r2.cloudflarestorage.com)", {
      endpoint_url: "https://acme.r2.cloudflarestorage.com",
    }),
    row(3, 12345, "postgresql", "ID: 3", {
      host: "warehouse.example.com",
      port: 5432,
      database: "analytics",
    }),
    row(4, 12345, "snowflake", "acme (account: xy12345, password auth)", {
      account: "xy12345",
      user: "POSTHOG_EXPORTS",
      authentication_type: "password",
    }),
    row(5, 12345, "google-cloud-service-account", "5", {
      project_id: "acme-analytics",
      client_email: "posthog@acme-analytics.iam.gserviceaccount.com",
    }),
    row(6, 12345, "azure-blob", "ID: 6", { account_name: "acmeexports" }),
    row(7, 12345, "databricks", "7", { server_hostname: "dbc-1234.cloud.databricks.com" }),
    row(8, 12345, "databricks", "8", { server_hostname: "dbc-5678.cloud.databricks.com" }),
    row(9, 12345, "aws-redshift", "ID: 9", { region: "us-east-1" }),
    row(10, 12346, "aws-s3", "staging (access key)", {}),
    row(11, 22222, "aws-s3", "globex (AWS account 999999999999)", { aws_account_id: "999999999999" }, 4),
  ];
}

const S3_CONFIG = {
  bucket_name: "acme-events",
  region: "us-east-1",
  prefix: "posthog/events/",
  file_format: "Parquet",
  compression: "zstd",
};

/**
 * The credentials the default seed stores in its exports (never shown by the service, so never by the
 * tool). Made of no ordinary word, so that a test can look for any piece of them in the output.
 */
export const SEED_CREDENTIALS = {
  s3AccessKey: "AKIAEMULATOR000000",
  s3SecretKey: "EmuS3+sk/Wq7Zr4Tn9Kd",
  postgresPassword: "EmuPg_pw*Hx4Qs8Lm",
} as const;

/**
 * The sample S3 export: newest, an AwsS3 export using the aws-s3 integration, as the service migrated
 * every legacy S3 export (its file names keep the codec: it predates `legacy_parquet_extension`);
 * under the 2025 rules the legacy `S3` type with inline keys.
 */
function s3Destination(service: ServiceSettings): BatchExportRecord["destination"] {
  if (service.rules === "newest") {
    return { type: "AwsS3", integration: INTEGRATION_IDS.awsS3, config: { ...S3_CONFIG } };
  }
  return {
    type: "S3",
    integration: null,
    config: {
      ...S3_CONFIG,
      aws_access_key_id: SEED_CREDENTIALS.s3AccessKey,
      aws_secret_access_key: SEED_CREDENTIALS.s3SecretKey,
    },
  };
}

/** bob's key (a member who created only dashboard 4): for tests of who may do what. */
export const BOB_KEY = "phx_emulator_bob";

/**
 * One key per environment of the examples (alice's, every scope): staging (12346) and production
 * (12345) are planned and applied each with its own key (SPEC §9). And dave's key, of another
 * organization (Globex): a key that reads neither of Acme's projects.
 */
export const ENVIRONMENT_KEYS = {
  staging: "phx_emulator_staging",
  production: "phx_emulator_production",
  globex: "phx_emulator_globex",
} as const;

/** Acme's projects number their group types alike (a seed may give a project its own). */
const GROUP_TYPES = [
  {
    group_type: "company",
    group_type_index: 0,
    name_singular: "company",
    name_plural: "companies",
    created_at: "2025-01-10T09:00:00.000Z",
  },
  {
    group_type: "workspace",
    group_type_index: 1,
    name_singular: "workspace",
    name_plural: "workspaces",
    created_at: "2025-01-10T09:00:00.000Z",
  },
];

const ALL_FEATURES = { tagging: true, access_control: true, advanced_permissions: true };

export function defaultSeed(now: Date, service: ServiceSettings = defaultService()): StoreData {
  const at = now.getTime();
  const pausedAt = new Date(Math.floor(at / DAY) * DAY - 2 * DAY).toISOString();
  return {
    service,
    organizations: [
      { id: ACME_ID, name: "Acme", features: { ...ALL_FEATURES } },
      { id: GLOBEX_ID, name: "Globex", features: { ...ALL_FEATURES } },
    ],
    projects: [
      { id: 12345, name: "Production", organization: ACME_ID, group_types: GROUP_TYPES },
      { id: 12346, name: "Staging", organization: ACME_ID, group_types: GROUP_TYPES },
      { id: 22222, name: "Globex Main", organization: GLOBEX_ID },
    ],
    users: [
      user(1, "alice", [{ id: ACME_ID, level: "admin" }]),
      user(2, "bob", [{ id: ACME_ID, level: "member" }]),
      user(3, "carol", [{ id: ACME_ID, level: "member" }]),
      user(4, "dave", [{ id: GLOBEX_ID, level: "admin" }]),
      user(5, "erin", [{ id: ACME_ID, level: "member" }], false),
    ],
    api_keys: [
      { key: "phx_emulator", user: 1, scopes: ["*"] },
      { key: BOB_KEY, user: 2, scopes: ["*"], label: "bob" },
      { key: ENVIRONMENT_KEYS.staging, user: 1, scopes: ["*"], label: "staging" },
      { key: ENVIRONMENT_KEYS.production, user: 1, scopes: ["*"], label: "production" },
      { key: ENVIRONMENT_KEYS.globex, user: 4, scopes: ["*"], label: "globex" },
    ],
    integrations: integrations(),
    dashboards: dashboards(),
    collaborators: [
      {
        id: uuid("7b52", 1),
        dashboard_id: 3,
        user: 3,
        level: 37,
        added_at: "2025-03-03T10:00:00.000Z",
        updated_at: "2025-03-03T10:00:00.000Z",
      },
    ],
    sharing: [
      {
        dashboard_id: 1,
        enabled: true,
        access_token: "emulatorShareToken0000000000001",
        created_at: "2025-03-01T10:00:00.000Z",
        settings: null,
        password_required: false,
      },
    ],
    batch_exports: [
      batchExportRecord({
        id: S3_EXPORT_ID,
        team_id: 12345,
        name: "Events to S3",
        model: "events",
        destination: s3Destination(service),
        interval: "hour",
        created_at: "2025-04-01T12:00:00.000Z",
        last_updated_at: "2025-04-01T12:00:00.000Z",
      }),
      batchExportRecord({
        id: POSTGRES_EXPORT_ID,
        team_id: 12345,
        name: "Persons to Postgres",
        model: "persons",
        destination: {
          type: "Postgres",
          integration: null,
          config: {
            user: "posthog",
            password: SEED_CREDENTIALS.postgresPassword,
            host: "db.example.com",
            port: 5432,
            database: "analytics",
            schema: "public",
            table_name: "persons",
          },
        },
        interval: "day",
        paused: true,
        created_at: "2025-04-02T12:00:00.000Z",
        last_updated_at: pausedAt,
        last_paused_at: pausedAt,
      }),
    ],
    ...runsAndLogs(at),
    backfills: [],
    events: sampleEvents(at),
    ...sampleFlags(at),
    ...sampleCohorts(),
    early_access_features: [],
    product_tours: [],
    approval_policies: [],
    change_requests: [],
    insights: [],
    quick_filters: [],
    dashboard_templates: [],
    view_logs: [],
    activity_log: [],
    access_controls: [],
    sessions: [],
    sequences: { dashboard: 6, tile: 3, insight: 1, text: 3, feature_flag: 9, cohort: 8, action: 6 },
  };
}
