/**
 * Desired state: what the YAML files say, after validation, interpolation and normalisation.
 * Raw parsed YAML (`…Input`) never leaves src/config; the planner only sees these types.
 * Normalised means: symbolic levels resolved to numbers, tags lowercased/de-duplicated/sorted,
 * timestamps as ISO-8601 UTC strings, `${NAME}` in non-secret strings replaced from the environment.
 * A field that the file leaves out is `undefined` here and is never compared nor sent.
 */
import type { SecretValue } from "./secret.js";

/** Where something was written: every diagnostic and every plan action points back here. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

export type Severity = "error" | "warning" | "note";

/** One problem found in the files; collected, never thrown one at a time. */
export interface Diagnostic {
  severity: Severity;
  file: string;
  line: number;
  column: number;
  message: string;
}

export type RestrictionLevel = 21 | 37;
export type Model = "events" | "persons" | "sessions";
export type Interval = "hour" | "day" | "week" | "every 5 minutes" | "every 15 minutes";
export type DestinationType =
  | "S3"
  | "Snowflake"
  | "Postgres"
  | "Redshift"
  | "BigQuery"
  | "Databricks"
  | "AzureBlob"
  | "HTTP"
  | "NoOp";

export interface DesiredCollaborator {
  user_uuid: string;
  /** Always 37 (can_edit): the only level the service accepts. */
  level: 37;
  source: SourceRef;
}

export interface DesiredDashboard {
  kind: "dashboard";
  name: string;
  /** Pinned identity; when set, matching is by id and a name change is a rename. */
  id?: number;
  /** Tombstone: soft delete (PATCH deleted=true). */
  deleted: boolean;
  description?: string;
  pinned?: boolean;
  /** Lowercased, de-duplicated, sorted. */
  tags?: string[];
  restriction_level?: RestrictionLevel;
  /** When present, the whole set; absent means collaborators are not managed. Sorted by user_uuid. */
  collaborators?: DesiredCollaborator[];
  /** When present, the sharing switch is managed. */
  sharing?: { enabled: boolean };
  source: SourceRef;
}

export interface DesiredDestination {
  type: DestinationType;
  /**
   * Non-secret config keys, interpolated. Secret keys (per destination type) are not here but in
   * `secrets`, keyed by the same dotted path they have in the config (e.g. `copy_inputs.authorization.aws_access_key_id`).
   */
  config: Record<string, unknown>;
  secrets: Record<string, SecretValue>;
  /**
   * The PostHog Integration holding the credentials (required for Databricks and AzureBlob). Sent as
   * write-only `destination.integration_id`; the service shows it as `destination.integration`.
   */
  integration_id?: number;
}

export interface DesiredBatchExport {
  kind: "batch_export";
  name: string;
  /** Pinned identity (the service's UUID). */
  id?: string;
  /** Tombstone: DELETE. */
  deleted: boolean;
  model?: Model;
  interval?: Interval;
  paused?: boolean;
  /** Send unpause with `backfill: true` so the paused gap is exported. */
  backfill_on_unpause?: boolean;
  /** ISO-8601 UTC instants. */
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  filters?: unknown[];
  destination?: DesiredDestination;
  source: SourceRef;
}

export type DesiredObject = DesiredDashboard | DesiredBatchExport;

/** All that the files declare for one project. */
export interface DesiredProject {
  /** From the files' `project:` key, else --project / POSTHOG_PROJECT_ID; undefined when none is known. */
  project: number | undefined;
  files: string[];
  /** Name globs that --prune must never touch. */
  ignore: { dashboards: string[]; batch_exports: string[] };
  /** Which kinds some file lists (a `dashboards:` / `batch_exports:` key, even empty): only those are pruned. */
  manages: { dashboards: boolean; batch_exports: boolean };
  dashboards: DesiredDashboard[];
  batchExports: DesiredBatchExport[];
}

export interface LoadedConfig {
  projects: DesiredProject[];
  diagnostics: Diagnostic[];
  /** Environment variables that secrets need but that are not set (fine for plan, fatal for apply). */
  missingSecretVariables: string[];
}
