/**
 * The shapes of the service's 2xx answers that the tool relies on, as JSON Schema (2020-12), checked
 * before anything reads them (SPEC §8). Derived from the service's OpenAPI components
 * (shared/reference/openapi-subset.json; the component is named on each schema) and narrowed to what
 * the tool reads: ids, names, the managed fields and the envelope keys. Every object stays open
 * (extra fields pass: the service adds fields over time); nothing is checked that nothing reads.
 *
 * Where the published schema is wrong or too loose, the shape says what the real service sends and
 * the tool needs (service-api.md §9 lists the mistakes):
 * - sharing GET is one object, not a list; backfill create and run retry answer `{backfill_id}`;
 *   pause / unpause answer `{paused}`; logs and organizations / projects are not in the subset;
 * - backfill `progress` is an object or null, not a string; event `properties` / `person` are
 *   objects, not strings;
 * - fields the comparison reads are required even where the component leaves them optional
 *   (`paused` of a batch export: a missing value would plan a change forever);
 * - every page envelope must carry `next` (string or null): a page without it would silently end
 *   the list; limit/offset lists must carry `count`.
 *
 * Only data here: ajv compiles a shape the first time an answer of that shape arrives (answers.ts),
 * so commands that never reach the service never pay for it. test/service/shapes.test.ts keeps these
 * in step with the OpenAPI components.
 */

type Schema = Record<string, unknown>;

const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: "object",
  properties,
  required,
});
const str: Schema = { type: "string" };
const strOrNull: Schema = { type: ["string", "null"] };
const int: Schema = { type: "integer" };
const bool: Schema = { type: "boolean" };
const level: Schema = { enum: [21, 37] };
const list = (items: Schema): Schema => ({ type: "array", items });

/** OpenAPI `DashboardBasic` (list items): the identity and every field the plan compares. */
const dashboardBasic = obj(
  {
    id: int,
    name: strOrNull,
    description: str,
    pinned: bool,
    tags: list(str),
    restriction_level: level,
    is_shared: bool,
    deleted: bool,
  },
  ["id", "name", "description", "pinned", "tags", "restriction_level", "is_shared"],
);

/**
 * OpenAPI `Dashboard` (retrieve, create, PATCH): apply reads the id and the tags the service kept.
 * The component requires none of the writable fields, so they are checked only when present.
 */
const dashboard = obj(
  {
    id: int,
    name: strOrNull,
    description: str,
    pinned: bool,
    tags: list(str),
    restriction_level: level,
    deleted: bool,
  },
  ["id"],
);

/**
 * A dashboard's tile (not in the subset; service-api.md §11): its id, what it shows (the insight's id,
 * a text card's body) and its layouts. Layouts written by hand may be anything JSON; the plan reads
 * their `sm` entry only when it is an object.
 */
const tile = obj(
  {
    id: int,
    insight: { type: ["object", "null"], properties: { id: int, name: strOrNull }, required: ["id"] },
    text: { type: ["object", "null"], properties: { id: int, body: strOrNull } },
    color: strOrNull,
  },
  ["id"],
);

/** A dashboard retrieve with its tiles (the plan reads them only for dashboards that declare `tiles:`). */
const dashboardWithTiles = {
  ...dashboard,
  properties: { ...(dashboard.properties as Schema), tiles: list(tile) },
  required: ["id", "tiles"],
};

/**
 * Insights (not in the subset; products/product_analytics/backend/api/insight.py): the basic shape of
 * `?basic=true` lists, and the full one of retrieve / create / PATCH. The plan reads the identity, the
 * managed fields and the tiles placing the insight (`dashboard_tiles`; the deprecated `dashboards` is
 * optional: the service drops it once its opt-in is enforced).
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

/** OpenAPI `DashboardCollaborator`: the plan reads the user's uuid and the level. */
const collaborator = obj({ id: str, user: obj({ uuid: str }, ["uuid"]), level }, ["user", "level"]);

/** OpenAPI `SharingConfiguration`, corrected: one object (not a list); `created_at` null until saved. */
const sharing = obj({ enabled: bool, access_token: strOrNull, created_at: strOrNull }, ["enabled"]);

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

/**
 * OpenAPI `BatchExport` + `BatchExportDestination`: identity, the managed fields and the project
 * (`team_id`, which organization lists need). `paused` is required although the component leaves it
 * optional (see the header); `hogql_query` may be null or absent.
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
    latest_runs: list(run),
  },
  ["id", "team_id", "name", "destination", "interval", "paused"],
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

/** OpenAPI `ClickhouseEvent`, corrected: `properties` is an object, `person` an object or null. */
const event = obj(
  {
    id: str,
    event: str,
    timestamp: str,
    distinct_id: str,
    properties: { type: "object" },
    person: { type: ["object", "null"] },
  },
  ["id", "event", "timestamp"],
);

/** Integrations list items (not in the subset; service-api.md §4 "Integrations"): id and kind. */
const integration = obj({ id: int, kind: str, display_name: strOrNull }, ["id", "kind"]);

/** Organization retrieve (not in the subset): the id and the paid features, old or new shape. */
const organization = obj(
  {
    id: str,
    name: str,
    available_product_features: { type: ["array", "null"], items: obj({ key: str }, ["key"]) },
    available_features: list(str),
  },
  ["id"],
);

/**
 * Organization members list items (not in the subset; `OrganizationMember`): the membership id (pages
 * are de-duplicated by it) and the user, whose uuid and email collaborators are resolved against.
 */
const member = obj(
  { id: str, user: obj({ uuid: str, email: str, first_name: str, last_name: str }, ["uuid", "email"]) },
  ["id", "user"],
);

/** Project retrieve (not in the subset): the id and the organization it belongs to. */
const project = obj({ id: int, organization: str }, ["id", "organization"]);

const nonNegative: Schema = { type: "integer", minimum: 0 };

/** A limit/offset list (`PaginatedDashboardBasicList`, `PaginatedBatchExportList`). */
const offsetPage = (item: Schema): Schema =>
  obj({ results: list(item), count: nonNegative, next: strOrNull }, ["results", "count", "next"]);
/** Cursor and `before=` pages (runs, backfills, events): no count. */
const cursorPage = (item: Schema): Schema =>
  obj({ results: list(item), count: nonNegative, next: strOrNull }, ["results", "next"]);

/**
 * Every shape by name. `list` says where a page's items are, for progress counts: `results` of an
 * envelope, or the answer itself for the collaborators array.
 */
export const SHAPES = {
  dashboardPage: { schema: offsetPage(dashboardBasic), list: "results" },
  dashboard: { schema: dashboard },
  dashboardWithTiles: { schema: dashboardWithTiles },
  insightPage: { schema: offsetPage(insightBasic), list: "results" },
  insight: { schema: insightBasic },
  collaborators: { schema: list(collaborator), list: "array" },
  collaborator: { schema: collaborator },
  sharing: { schema: sharing },
  batchExportPage: { schema: offsetPage(batchExport), list: "results" },
  batchExport: { schema: batchExport },
  runPage: { schema: cursorPage(run), list: "results" },
  run: { schema: run },
  backfillPage: { schema: cursorPage(backfill), list: "results" },
  /** Logs come in a limit/offset envelope whose `next` is always null (service-api.md §4). */
  logPage: { schema: cursorPage(logEntry), list: "results" },
  eventPage: { schema: cursorPage(event), list: "results" },
  event: { schema: event },
  eventValues: { schema: list(obj({ name: {} }, ["name"])), list: "array" },
  integrationPage: { schema: offsetPage(integration), list: "results" },
  organization: { schema: organization },
  memberPage: { schema: offsetPage(member), list: "results" },
  project: { schema: project },
  /** The organization's projects list: each project's id is what the tool reads. */
  projectPage: { schema: offsetPage(obj({ id: int }, ["id"])), list: "results" },
  /** Backfill create and run retry (the OpenAPI's BatchExportBackfill is wrong here). */
  backfillCreated: { schema: obj({ backfill_id: str }, ["backfill_id"]) },
  /** Pause and unpause (the OpenAPI names no body). */
  paused: { schema: obj({ paused: bool }, ["paused"]) },
  cancelled: { schema: obj({ cancelled: bool }, ["cancelled"]) },
} as const satisfies Record<string, { schema: Schema; list?: "results" | "array" }>;

/**
 * A shape declared outside this file: a kind's own answers (src/kinds/<kind>/), checked like these.
 * `list` says where a page's items are, for progress counts.
 */
export interface AnswerShape {
  readonly schema: Schema;
  readonly list?: "results" | "array";
}

export type Shape = keyof typeof SHAPES;

/** What a request expects: a shape by name (SHAPES), or one a kind declares. */
export type Expected = Shape | AnswerShape;

/**
 * The shape of a limit/offset list (`count`, `next`, `results`) whose items have `item`'s shape: for a
 * kind's own list endpoint, e.g. `listPage(answerObject({ id: int, name: str }, ["id", "name"]))`.
 * Declare it once, at module level: a shape is compiled the first time an answer of it arrives.
 */
export function listPage(item: Schema): AnswerShape {
  return { schema: offsetPage(item), list: "results" };
}

/** An open object whose `required` keys must be there (extra fields pass: the service adds fields). */
export const answerObject = obj;
