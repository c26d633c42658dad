/**
 * What the service answers about dashboards, their collaborators and their sharing configuration: each
 * answer's type, as the real service sends it (service-api.md §1–§3; only the fields the tool reads or
 * writes are typed precisely), and its shape, checked before anything reads it (SPEC §8; the words
 * and the rules of shapes are src/service/shapes.ts's). test/service/shapes.test.ts keeps the shapes in
 * step with the OpenAPI components named on each.
 */
import { type AnswerShape, answerList, answerTypes, listPage } from "../../service/shapes.js";
import type { UserBasic } from "../../service/types.js";

/** A dashboard as the list endpoint returns it (DashboardBasicSerializer). */
export interface DashboardBasic {
  id: number;
  name: string | null;
  description: string;
  pinned: boolean;
  created_at: string;
  created_by: UserBasic | null;
  last_accessed_at: string | null;
  last_viewed_at?: string | null;
  is_shared: boolean;
  deleted: boolean;
  creation_mode: "default" | "template" | "duplicate" | "unlisted";
  tags: string[];
  restriction_level: 21 | 37;
  effective_restriction_level: 21 | 37;
  effective_privilege_level: 21 | 37;
  user_access_level: string | null;
  access_control_version: "v1" | "v2";
  last_refresh: string | null;
  team_id: number;
}

/** A dashboard as retrieve / create / PATCH return it. */
export interface Dashboard extends DashboardBasic {
  filters: Record<string, unknown>;
  variables: Record<string, unknown> | null;
  breakdown_colors: unknown;
  data_color_theme_id: number | null;
  persisted_filters?: Record<string, unknown> | null;
  persisted_variables?: Record<string, unknown> | null;
  quick_filter_ids: string[];
  tiles: DashboardTile[];
}

/**
 * A dashboard tile as a dashboard's retrieve shows it (service-api.md §11): an insight's place on the
 * dashboard or a text card, its layouts per breakpoint (`sm` is the 12-column grid) and colour.
 */
export interface DashboardTile {
  id: number;
  /** The insight the tile shows (in the dashboard's context), or null for a text tile. */
  insight: { id: number; short_id?: string; name: string | null; deleted?: boolean } | null;
  text: { id: number; body: string | null } | null;
  /** `{sm: {x, y, w, h, ...}, xs: {...}}`; `{}` for a tile added through the API and never placed. */
  layouts: Record<string, unknown> | null;
  color: string | null;
  order?: number | null;
}

/** A tile entry of a dashboard PATCH: display fields of the tile `id`, or a text card (new or `text.id`). */
export interface TileWrite {
  id?: number;
  text?: { id?: number; body: string };
  layouts?: Record<string, unknown>;
  color?: string | null;
  deleted?: boolean;
}

/** Body accepted by dashboard create / PATCH. */
export interface DashboardWrite {
  name?: string | null;
  description?: string;
  pinned?: boolean;
  deleted?: boolean;
  restriction_level?: 21 | 37;
  tags?: string[];
  filters?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  delete_insights?: boolean;
  use_template?: string;
  use_dashboard?: number;
  tiles?: TileWrite[];
}

export interface Collaborator {
  id: string;
  dashboard_id: number;
  user: UserBasic;
  level: 21 | 37;
  added_at: string;
  updated_at: string;
}

export interface SharingConfiguration {
  created_at: string | null;
  enabled: boolean;
  /** Server-owned; a fresh random value on every GET until sharing was first written. */
  access_token: string;
  settings?: Record<string, unknown> | null;
  password_required?: boolean;
  share_passwords?: unknown[];
}

const { obj, str, strOrNull, int, bool, list } = answerTypes;
const level = { enum: [21, 37] };

/** The identity and the fields the plan compares, as both a list item and a retrieve carry them. */
const core = {
  id: int,
  name: strOrNull,
  description: str,
  pinned: bool,
  tags: list(str),
  restriction_level: level,
};

/** OpenAPI `DashboardBasic` (list items): the identity and every field the plan compares. */
const dashboardBasic = obj({ ...core, is_shared: bool, deleted: bool }, [
  "id",
  "name",
  "description",
  "pinned",
  "tags",
  "restriction_level",
  "is_shared",
]);

/**
 * OpenAPI `Dashboard` (retrieve, create, PATCH): apply reads the id and the tags the service kept.
 * The component requires none of the writable fields, so they are checked only when present.
 */
const dashboard = obj({ ...core, deleted: bool }, ["id"]);

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
  properties: { ...(dashboard.properties as Record<string, unknown>), tiles: list(tile) },
  required: ["id", "tiles"],
};

/** OpenAPI `DashboardCollaborator`: the plan reads the user's uuid and the level. */
const collaborator = obj({ id: str, user: obj({ uuid: str }, ["uuid"]), level }, ["user", "level"]);

/** OpenAPI `SharingConfiguration`, corrected: one object (not a list); `created_at` null until saved. */
const sharing = obj({ enabled: bool, access_token: strOrNull, created_at: strOrNull }, ["enabled"]);

/** The shapes of the dashboards' answers, by name (the registry lists them: `Kind.answers`). */
export const DASHBOARD_ANSWERS = {
  /** A limit/offset list (`PaginatedDashboardBasicList`). */
  dashboardPage: listPage(dashboardBasic),
  dashboard: { schema: dashboard },
  dashboardWithTiles: { schema: dashboardWithTiles },
  /** A plain array: the collaborators endpoint is not paginated. */
  collaborators: answerList(collaborator),
  collaborator: { schema: collaborator },
  sharing: { schema: sharing },
} as const satisfies Record<string, AnswerShape>;
