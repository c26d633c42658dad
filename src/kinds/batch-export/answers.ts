/**
 * What the service answers about batch exports themselves (service-api.md §4): each answer's type, as
 * the real service sends it (only the fields the tool reads or writes are typed precisely), and its
 * shape, checked before anything reads it (SPEC §8; the words and the rules of shapes are
 * src/service/shapes.ts's). Runs, backfills and logs are the operations' (operations/answers.ts).
 * test/service/shapes.test.ts keeps the shapes in step with the OpenAPI components named on each.
 */
import { type AnswerShape, answerTypes, listPage } from "../../service/shapes.js";
import { type BatchExportRun, OPERATIONS_ANSWERS } from "./operations/answers.js";

export interface BatchExportDestination {
  type: string;
  /** Secret keys of the type are absent from every response. */
  config: Record<string, unknown>;
  integration?: number | null;
}

export interface BatchExport {
  id: string;
  team_id: number;
  name: string;
  model: string | null;
  destination: BatchExportDestination;
  interval: string;
  paused: boolean;
  created_at: string;
  last_updated_at: string;
  last_paused_at: string | null;
  start_at: string | null;
  end_at: string | null;
  latest_runs: BatchExportRun[];
  hogql_query?: string;
  schema: unknown;
  filters: unknown[] | null;
  /** Newest servers: the schedule's timezone and offsets (weekly exports run on `offset_day`, 0 = Sunday). */
  timezone?: string | null;
  offset_day?: number | null;
  offset_hour?: number | null;
}

/** Body accepted by batch export create / PATCH. */
export interface BatchExportWrite {
  name?: string;
  model?: string;
  destination?: { type: string; config?: Record<string, unknown>; integration_id?: number };
  interval?: string;
  paused?: boolean;
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  filters?: unknown[];
}

const { obj, str, strOrNull, int, bool, list } = answerTypes;

/**
 * OpenAPI `BatchExport` + `BatchExportDestination`: identity, the managed fields and the project
 * (`team_id`, which organization lists need). `paused` is required although the component leaves it
 * optional (a missing value would plan a change forever); `hogql_query` may be null or absent.
 */
const batchExport = obj(
  {
    id: str,
    team_id: int,
    name: str,
    model: strOrNull,
    destination: obj(
      {
        type: str,
        config: { type: ["object", "null"] },
        integration: { type: ["integer", "null"] },
      },
      ["type"],
    ),
    interval: str,
    paused: bool,
    last_paused_at: strOrNull,
    start_at: strOrNull,
    end_at: strOrNull,
    hogql_query: strOrNull,
    filters: { type: ["array", "null"] },
    latest_runs: list(OPERATIONS_ANSWERS.run.schema),
  },
  ["id", "team_id", "name", "destination", "interval", "paused"],
);

/** The shapes of the batch exports' answers, by name (the registry lists them: `Kind.answers`). */
export const BATCH_EXPORT_ANSWERS = {
  /** A limit/offset list (`PaginatedBatchExportList`). */
  batchExportPage: listPage(batchExport),
  batchExport: { schema: batchExport },
  /** Pause and unpause (the OpenAPI names no body). */
  paused: { schema: obj({ paused: bool }, ["paused"]) },
  ...OPERATIONS_ANSWERS,
} as const satisfies Record<string, AnswerShape>;
