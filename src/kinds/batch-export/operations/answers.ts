/**
 * What the service answers about a batch export's runs, backfills and logs (service-api.md §4): each
 * answer's type, as the real service sends it (only the fields the tool reads are typed precisely),
 * and its shape, checked before anything reads it (SPEC §8; the words and the rules of shapes are
 * src/service/shapes.ts's). Where the published schema is wrong, the shape says what the service
 * sends: backfill create and run retry answer `{backfill_id}`; backfill `progress` is an object or
 * null, not a string; logs are not in the OpenAPI subset. test/service/shapes.test.ts keeps the shapes
 * in step with the OpenAPI components named on each.
 */
import type { RunStatus } from "posthog-gitops-shared/posthog";
import { type AnswerShape, answerTypes, cursorPage } from "../../../service/shapes.js";

export interface BatchExportRun {
  id: string;
  status: RunStatus;
  records_completed: number | null;
  records_failed?: number | null;
  latest_error: string | null;
  data_interval_start: string | null;
  data_interval_end: string;
  cursor: string | null;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
  records_total_count: number | null;
  bytes_exported: number | null;
  batch_export: string;
  backfill: string | null;
}

export interface BackfillResponse {
  backfill_id: string;
}

/** A backfill as GET .../batch_exports/{id}/backfills/ lists it (cursor pages). */
export interface BatchExportBackfill {
  id: string;
  progress: { total_runs: number | null; finished_runs: number | null; progress: number | null } | null;
  start_at: string | null;
  end_at: string | null;
  status: RunStatus;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
  total_records_count: number | null;
  adjusted_start_at: string | null;
  team: number;
  batch_export: string;
}

export type LogLevel = "DEBUG" | "LOG" | "INFO" | "WARNING" | "ERROR";

export interface LogEntry {
  log_source_id: string;
  instance_id: string;
  timestamp: string;
  level: LogLevel;
  message: string;
}

const { obj, str, strOrNull, bool } = answerTypes;

/** OpenAPI `BatchExportRun`: what `runs`, `status` and `retry` show and pick from. */
const run = obj(
  {
    id: str,
    status: str,
    created_at: str,
    finished_at: strOrNull,
    data_interval_start: strOrNull,
    data_interval_end: strOrNull,
    records_completed: { type: ["integer", "null"] },
    latest_error: strOrNull,
    backfill: strOrNull,
  },
  ["id", "status", "created_at"],
);

/** OpenAPI `BatchExportBackfill`, corrected: `progress` is an object or null. */
const backfill = obj(
  {
    id: str,
    status: str,
    created_at: str,
    start_at: strOrNull,
    end_at: strOrNull,
    progress: { type: ["object", "null"] },
  },
  ["id", "status", "created_at"],
);

/** Log entries (undocumented in the subset; service-api.md §4 "Logs"). */
const logEntry = obj({ timestamp: str, level: str, message: str, instance_id: str }, [
  "timestamp",
  "level",
  "message",
]);

/** The shapes of the runs', backfills' and logs' answers, by name. */
export const OPERATIONS_ANSWERS = {
  runPage: cursorPage(run),
  run: { schema: run },
  backfillPage: cursorPage(backfill),
  /** Logs come in a limit/offset envelope whose `next` is always null (service-api.md §4). */
  logPage: cursorPage(logEntry),
  /** Backfill create and run retry (the OpenAPI's BatchExportBackfill is wrong here). */
  backfillCreated: { schema: obj({ backfill_id: str }, ["backfill_id"]) },
  cancelled: { schema: obj({ cancelled: bool }, ["cancelled"]) },
} as const satisfies Record<string, AnswerShape>;
