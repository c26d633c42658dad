/**
 * What the service answers about insights (service-api.md §11; not in the OpenAPI subset,
 * products/product_analytics/backend/api/insight.py): each answer's type, as the real service sends
 * it (only the fields the tool reads or writes are typed precisely), and its shape, checked before
 * anything reads it (SPEC §8; the words and the rules of shapes are src/service/shapes.ts's).
 */
import { type AnswerShape, answerTypes, listPage } from "../../service/shapes.js";
import type { UserBasic } from "../../service/types.js";

/** A tile placing an insight, as the insight's answers list them (`dashboard_tiles`). */
export interface InsightTile {
  id: number;
  dashboard_id: number;
  deleted: boolean | null;
}

/** An insight as `?basic=true` lists show it (metadata only, never results). */
export interface InsightBasic {
  id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string | null;
  /** Upgraded to the latest schema on every read (the stored query may be older). */
  query: Record<string, unknown> | null;
  filters: Record<string, unknown>;
  tags: string[];
  dashboard_tiles: InsightTile[];
  /** Deprecated, and left out once the service enforces its opt-in: read `dashboard_tiles`. */
  dashboards?: number[];
  saved: boolean;
  last_modified_at: string;
  last_modified_by?: UserBasic | null;
}

/** An insight as retrieve, create and PATCH return it. */
export interface Insight extends InsightBasic {
  deleted: boolean;
  result?: unknown;
}

/** Body accepted by insight create / PATCH. */
export interface InsightWrite {
  name?: string | null;
  description?: string | null;
  tags?: string[];
  query?: Record<string, unknown> | null;
  /** The replace-set of the dashboards the insight is on (the deprecated field is still how tiles are added). */
  dashboards?: number[];
  deleted?: boolean;
  saved?: boolean;
}

const { obj, str, strOrNull, int, list } = answerTypes;

/**
 * The basic shape of `?basic=true` lists, and the full one of retrieve / create / PATCH. The plan reads
 * the identity, the managed fields and the tiles placing the insight (`dashboard_tiles`; the deprecated
 * `dashboards` is optional: the service drops it once its opt-in is enforced).
 */
const insightBasic = obj(
  {
    id: int,
    short_id: str,
    name: strOrNull,
    description: strOrNull,
    query: { type: ["object", "null"] },
    tags: list(str),
    dashboard_tiles: list(
      obj({ id: int, dashboard_id: int, deleted: { type: ["boolean", "null"] } }, ["id", "dashboard_id"]),
    ),
    dashboards: list(int),
  },
  ["id", "name", "query", "dashboard_tiles"],
);

/** The shapes of the insights' answers, by name (the registry lists them: `Kind.answers`). */
export const INSIGHT_ANSWERS = {
  insightPage: listPage(insightBasic),
  insight: { schema: insightBasic },
} as const satisfies Record<string, AnswerShape>;
