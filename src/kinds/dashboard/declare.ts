/**
 * One declared dashboard (already schema-valid) → `DesiredDashboard`, with the semantic rules the schema
 * cannot express: collaborators need `only_collaborators`, only `can_edit` is accepted by the service,
 * each collaborator is named by exactly one of `email:` / `user_uuid:`, and once.
 */
import type { ObjectContext } from "../../config/context.js";
import type { Declared } from "../../config/types.js";
import { collaboratorName, type DesiredCollaborator } from "./collaborators.js";

export type { DesiredCollaborator } from "./collaborators.js";

export type RestrictionLevel = 21 | 37;

/** A declared dashboard, normalised: symbolic levels resolved, tags lowercased, sorted and unique. */
export interface DesiredDashboard extends Declared {
  kind: "dashboard";
  id?: number;
  description?: string;
  pinned?: boolean;
  /** Lowercased, de-duplicated, sorted. */
  tags?: string[];
  restriction_level?: RestrictionLevel;
  /** When present, the whole set; absent means collaborators are not managed. In file order. */
  collaborators?: DesiredCollaborator[];
  /** When present, the sharing switch is managed. */
  sharing?: { enabled: boolean };
}

export interface DashboardInput {
  name: string;
  id?: number;
  description?: string;
  pinned?: boolean;
  tags?: string[];
  restriction_level?: "everyone" | "only_collaborators" | RestrictionLevel;
  collaborators?: { user_uuid?: string; email?: string; level?: "can_edit" | "can_view" | 21 | 37 }[];
  sharing?: { enabled: boolean };
  deleted?: boolean;
}

const RESTRICTION: Record<string, RestrictionLevel> = { everyone: 21, only_collaborators: 37 };

export function declareDashboard(input: DashboardInput, ctx: ObjectContext): DesiredDashboard {
  const out: DesiredDashboard = {
    kind: "dashboard",
    name: ctx.text("/name", input.name),
    deleted: input.deleted ?? false,
    source: ctx.source(),
  };
  if (input.id !== undefined) out.id = input.id;
  if (input.description !== undefined) out.description = ctx.text("/description", input.description);
  if (input.pinned !== undefined) out.pinned = input.pinned;
  if (input.tags !== undefined) {
    const tags = input.tags.map((t, i) => ctx.text(`/tags/${i}`, t).trim().toLowerCase());
    out.tags = [...new Set(tags.filter((t) => t !== ""))].sort();
  }
  if (input.restriction_level !== undefined) {
    const level = input.restriction_level;
    out.restriction_level = typeof level === "number" ? level : RESTRICTION[level]!;
  }
  if (input.collaborators !== undefined) {
    out.collaborators = collaborators(input.collaborators, ctx);
    if (input.collaborators.length > 0 && out.restriction_level !== 37) {
      const now = input.restriction_level === undefined ? "is not set" : `is ${input.restriction_level}`;
      ctx.error(
        "/collaborators",
        `${ctx.owner} has collaborators but its restriction_level ${now}: collaborators need restriction_level: only_collaborators`,
        "key",
      );
    }
  }
  if (input.sharing !== undefined) out.sharing = { enabled: input.sharing.enabled };
  return out;
}

function collaborators(
  list: NonNullable<DashboardInput["collaborators"]>,
  ctx: ObjectContext,
): DesiredCollaborator[] {
  const seen = new Map<string, string>();
  const out: DesiredCollaborator[] = [];
  list.forEach((item, i) => {
    const level = item.level ?? "can_edit";
    if (level === "can_view" || level === 21) {
      ctx.error(
        `/collaborators/${i}/level`,
        `collaborator level ${level} of ${ctx.owner} is not supported: the service only accepts can_edit (37)`,
      );
      return;
    }
    if ((item.user_uuid === undefined) === (item.email === undefined)) {
      const problem = item.email === undefined ? "names nobody" : "has both email and user_uuid";
      ctx.error(
        `/collaborators/${i}`,
        `collaborator ${i + 1} of ${ctx.owner} ${problem}: give exactly one of email: or user_uuid:`,
      );
      return;
    }
    // The collaborator's mapping (its first key): recorded by the fast parse path, no scalar lookup.
    const source = ctx.at(`/collaborators/${i}`);
    const collaborator: DesiredCollaborator =
      item.user_uuid !== undefined
        ? { user_uuid: item.user_uuid.toLowerCase(), level: 37, source }
        : { email: ctx.text(`/collaborators/${i}/email`, item.email ?? "").trim(), level: 37, source };
    const key = collaborator.user_uuid ?? `email ${collaborator.email?.toLowerCase()}`;
    const first = seen.get(key);
    const field = item.user_uuid !== undefined ? "user_uuid" : "email";
    if (first !== undefined) {
      ctx.error(
        `/collaborators/${i}/${field}`,
        `collaborator ${collaboratorName(collaborator)} is listed twice in ${ctx.owner} (first at ${first})`,
      );
      return;
    }
    seen.set(key, `${source.file}:${source.line}:${source.column}`);
    out.push(collaborator);
  });
  return out;
}
