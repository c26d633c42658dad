/**
 * The shapes of the service's 2xx answers that the tool relies on, as JSON Schema (2020-12), checked
 * before anything reads them (SPEC §8): the words every shape is written in, and the shapes of the
 * endpoints that belong to no kind (events, organizations, members, projects, integrations). Each kind
 * declares its own answers' shapes in its folder (src/kinds/<kind>/answers.ts) with these words, and
 * the registry lists them (`Kind.answers`). Derived from the service's OpenAPI components
 * (shared/reference/openapi-subset.json; the component is named on each schema) and narrowed to what
 * the tool reads: ids, names, the managed fields and the envelope keys. Every object stays open
 * (extra fields pass: the service adds fields over time); nothing is checked that nothing reads.
 *
 * Where the published schema is wrong or too loose, the shape says what the real service sends and
 * the tool needs (service-api.md §9 lists the mistakes), e.g. event `properties` / `person` are
 * objects, not strings; fields the comparison reads are required even where the component leaves
 * them optional; every page envelope must carry `next` (string or null): a page without it would
 * silently end the list; limit/offset lists must carry `count`.
 *
 * Only data here: ajv compiles a shape the first time an answer of that shape arrives (answers.ts),
 * so commands that never reach the service never pay for it. test/service/shapes.test.ts keeps these
 * and the kinds' in step with the OpenAPI components.
 */

type Schema = Record<string, unknown>;

/**
 * What a request expects of a 2xx answer (`RequestSpec.expect`): its schema, and where a page's items
 * are, for progress counts (`results` of an envelope, or the answer itself for a bare array).
 * Declare a shape once, at module level: it is compiled the first time an answer of it arrives.
 */
export interface AnswerShape {
  readonly schema: Schema;
  readonly list?: "results" | "array";
}

/** An open object whose `required` keys must be there (extra fields pass: the service adds fields). */
export const answerObject = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: "object",
  properties,
  required,
});

/** The schema words shapes are written with: `obj` is `answerObject`. */
export const answerTypes = {
  obj: answerObject,
  str: { type: "string" } as Schema,
  strOrNull: { type: ["string", "null"] } as Schema,
  int: { type: "integer" } as Schema,
  bool: { type: "boolean" } as Schema,
  list: (items: Schema): Schema => ({ type: "array", items }),
};

const { obj, str, strOrNull, int, list } = answerTypes;
const nonNegative: Schema = { type: "integer", minimum: 0 };

/**
 * A limit/offset list (`count`, `next`, `results`) whose items have `item`'s shape, e.g. a kind's own
 * list endpoint: `listPage(answerObject({ id: int, name: str }, ["id", "name"]))`.
 */
export function listPage(item: Schema): AnswerShape {
  return {
    schema: obj({ results: list(item), count: nonNegative, next: strOrNull }, ["results", "count", "next"]),
    list: "results",
  };
}

/** A cursor or `before=` list (runs, backfills, events): `next` and `results`, no `count` needed. */
export function cursorPage(item: Schema): AnswerShape {
  return {
    schema: obj({ results: list(item), count: nonNegative, next: strOrNull }, ["results", "next"]),
    list: "results",
  };
}

/** A bare array of `item`s (an endpoint that is not paginated). */
export function answerList(item: Schema): AnswerShape {
  return { schema: list(item), list: "array" };
}

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

/**
 * The key a request was made with (`GET /api/personal_api_keys/@current/`, service-api.md §8): its
 * label, masked value, scopes and the projects and organizations it is limited to (empty: none).
 */
const personalApiKey = obj(
  {
    id: str,
    label: strOrNull,
    mask_value: strOrNull,
    scopes: list(str),
    scoped_teams: { type: ["array", "null"], items: int },
    scoped_organizations: { type: ["array", "null"], items: str },
  },
  ["scopes"],
);

/**
 * A project's group types (`GET /api/projects/{id}/groups_types/`, service-api.md §14.2): a plain list
 * ordered by index, each index naming one group type in that project.
 */
const groupType = obj(
  { group_type: str, group_type_index: int, name_singular: strOrNull, name_plural: strOrNull },
  ["group_type", "group_type_index"],
);

/** The shapes of the endpoints that belong to no kind, by name. */
export const SHAPES = {
  eventPage: cursorPage(event),
  event: { schema: event },
  eventValues: answerList(obj({ name: {} }, ["name"])),
  integrationPage: listPage(integration),
  organization: { schema: organization },
  memberPage: listPage(member),
  project: { schema: project },
  personalApiKey: { schema: personalApiKey },
  groupTypes: answerList(groupType),
  /** The organization's projects list: each project's id is what the tool reads. */
  projectPage: listPage(obj({ id: int }, ["id"])),
} as const satisfies Record<string, AnswerShape>;
