/**
 * Types of the service's JSON that belong to no kind, as the real service sends them (see
 * shared/reference/service-api.md): users, list envelopes, errors, events, organizations, members and
 * projects. A kind's own answers are typed in its folder (src/kinds/<kind>/answers.ts). Only fields
 * this project reads or writes are typed precisely; others stay open.
 */

export interface UserBasic {
  id: number;
  uuid: string;
  distinct_id?: string;
  first_name: string;
  last_name?: string;
  email: string;
  is_email_verified?: boolean | null;
}

/** Offset-paged list envelope (`limit`/`offset`, absolute `next`/`previous`). */
export interface OffsetPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Cursor-paged list envelope (runs, backfills): no count. */
export interface CursorPage<T> {
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Events list envelope: no count, no previous; `next` pages with `before=`. */
export interface EventsPage<T> {
  next: string | null;
  results: T[];
}

/** The service's error body. */
export interface ServiceErrorBody {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
  /** A write an approval policy holds (409 `approval_required` / `change_request_pending`): its request. */
  change_request_id: string;
}

export interface EventItem {
  id: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  event: string;
  timestamp: string;
  person: null | {
    is_identified: boolean;
    distinct_ids: string[];
    properties: Record<string, unknown>;
  };
  elements: unknown[];
  elements_chain: string;
}

/* ---- Added by the service client (src/service) ---- */

/** An organization (GET /api/organizations/{id}/); only what the tool reads is typed. */
export interface Organization {
  id: string;
  name: string;
  /** Newer servers: the paid features the organization has, e.g. `{ key: "tagging" }`. */
  available_product_features?: Array<{ key: string; name?: string; [k: string]: unknown }> | null;
  /** Older servers: the same as plain keys. */
  available_features?: string[];
  [k: string]: unknown;
}

/** A project (GET /api/projects/{id}/); `organization` is the organization's id. */
/** One member of an organization (`GET /api/organizations/{id}/members/`): active users only. */
export interface OrganizationMember {
  /** The membership's id (not the user's). */
  id: string;
  user: UserBasic;
  /** 1 member, 8 admin, 15 owner. */
  level?: number;
  [k: string]: unknown;
}

export interface Project {
  id: number;
  uuid?: string;
  organization: string;
  name: string;
  [k: string]: unknown;
}

/** One group type of a project (`GET /api/projects/{id}/groups_types/`, service-api.md §14.2). */
export interface GroupType {
  group_type: string;
  /** 0 to 5; unique in the project. */
  group_type_index: number;
  name_singular?: string | null;
  name_plural?: string | null;
  [k: string]: unknown;
}

/** One value of GET /events/values/. */
export interface EventPropertyValue {
  name: unknown;
  count?: number;
}

/** `GET /api/personal_api_keys/@current/`: the key a request was made with (its value never sent back). */
export interface PersonalApiKey {
  id?: string;
  label?: string | null;
  /** e.g. `phx_...abcd`. */
  mask_value?: string | null;
  /** `["*"]` for every scope (the service shows a legacy key without scopes so too). */
  scopes: string[];
  /** The project ids the key is limited to; empty or absent: none. */
  scoped_teams?: number[] | null;
  scoped_organizations?: string[] | null;
}
