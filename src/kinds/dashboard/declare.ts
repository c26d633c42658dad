/**
 * A dashboard's declared collaborators (the one field a table cannot declare): only `can_edit` is
 * accepted by the service, each collaborator once. That they need `only_collaborators` is a rule across
 * fields, the kind's `declare` hook (index.ts).
 */
import type { SourceRef } from "../../config/types.js";
import type { FieldContext } from "../define/index.js";

export interface CollaboratorInput {
  user_uuid: string;
  level?: "can_edit" | "can_view" | 21 | 37;
}

export interface DesiredCollaborator {
  user_uuid: string;
  /** Always 37 (can_edit): the only level the service accepts. */
  level: 37;
  source: SourceRef;
}

/** The declared collaborators, each once, sorted by user_uuid; can_view is refused. */
export function declareCollaborators(
  list: CollaboratorInput[],
  { ctx }: FieldContext,
): DesiredCollaborator[] {
  const seen = new Map<string, string>();
  const out: DesiredCollaborator[] = [];
  list.forEach((item, i) => {
    const uuid = item.user_uuid.toLowerCase();
    const level = item.level ?? "can_edit";
    if (level === "can_view" || level === 21) {
      ctx.error(
        `/collaborators/${i}/level`,
        `collaborator level ${level} of ${ctx.owner} is not supported: the service only accepts can_edit (37)`,
      );
      return;
    }
    const first = seen.get(uuid);
    if (first !== undefined) {
      ctx.error(
        `/collaborators/${i}/user_uuid`,
        `collaborator ${uuid} is listed twice in ${ctx.owner} (first at ${first})`,
      );
      return;
    }
    // The collaborator's mapping (its first key): recorded by the fast parse path, no scalar lookup.
    const source = ctx.at(`/collaborators/${i}`);
    seen.set(uuid, `${source.file}:${source.line}:${source.column}`);
    out.push({ user_uuid: uuid, level: 37, source });
  });
  return out.sort((a, b) => (a.user_uuid < b.user_uuid ? -1 : a.user_uuid > b.user_uuid ? 1 : 0));
}
