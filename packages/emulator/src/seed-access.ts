/**
 * Defaults for a seed's access records: access control rules (`access_controls`, the service's
 * AccessControl rows; a test's `AccessControl.objects.create(team=..., resource=..., resource_id=...,
 * access_level=...)`) and open browser sessions (`sessions`). Identity fields stay required.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { AccessLevel, StoreData } from "./types.js";

type Raw = Record<string, unknown>;

const LEVELS: readonly AccessLevel[] = ["none", "viewer", "editor", "manager", "member", "admin"];

export class AccessSeedError extends Error {
  override name = "SeedError";
}

export function normaliseAccess(list: (key: string) => Raw[], at: string) {
  const access_controls: StoreData["access_controls"] = list("access_controls").map((a) => {
    const team = a.team_id ?? a.team;
    if (!Number.isInteger(team))
      throw new AccessSeedError('seed: an access control has a missing or invalid "team_id"');
    if (typeof a.resource !== "string" || a.resource === "") {
      throw new AccessSeedError('seed: an access control has a missing or invalid "resource"');
    }
    if (!LEVELS.includes(a.access_level as AccessLevel)) {
      throw new AccessSeedError('seed: an access control has a missing or invalid "access_level"');
    }
    const member = a.organization_member ?? null;
    return {
      id: typeof a.id === "string" ? a.id : randomUUID(),
      team_id: team as number,
      resource: a.resource,
      // The service's column is a string: numeric object ids are kept as their text.
      resource_id: a.resource_id === undefined || a.resource_id === null ? null : String(a.resource_id),
      access_level: a.access_level as AccessLevel,
      organization_member: Number.isInteger(member) ? (member as number) : null,
      created_by: Number.isInteger(a.created_by) ? (a.created_by as number) : null,
      created_at: typeof a.created_at === "string" ? a.created_at : at,
      updated_at: typeof a.updated_at === "string" ? a.updated_at : at,
    };
  });
  const sessions: StoreData["sessions"] = list("sessions").map((s) => {
    if (!Number.isInteger(s.user))
      throw new AccessSeedError('seed: a session has a missing or invalid "user"');
    return {
      id: typeof s.id === "string" ? s.id : randomBytes(24).toString("hex"),
      user: s.user as number,
      csrf_token: typeof s.csrf_token === "string" ? s.csrf_token : randomBytes(24).toString("hex"),
      created_at: typeof s.created_at === "string" ? s.created_at : at,
    };
  });
  return { access_controls, sessions };
}
