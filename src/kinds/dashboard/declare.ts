/**
 * A dashboard's declared collaborators (the one field a table cannot declare): only `can_edit` is
 * accepted by the service, each is named by exactly one of `email:` / `user_uuid:`, and once. That they
 * need `only_collaborators` is a rule across fields, the kind's `declare` hook (index.ts); that they are
 * members of the organization is checked at plan (collaborators.ts).
 */
import { asciiLower } from "../../text.js";
import type { FieldContext } from "../define/index.js";
import { collaboratorName, type DesiredCollaborator } from "./collaborators.js";

export type { DesiredCollaborator } from "./collaborators.js";

export interface CollaboratorInput {
  user_uuid?: string;
  email?: string;
  level?: "can_edit" | "can_view" | 21 | 37;
}

/** The declared collaborators, each once, in file order; can_view is refused. */
export function declareCollaborators(
  list: CollaboratorInput[],
  { ctx }: FieldContext,
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
        ? { user_uuid: asciiLower(item.user_uuid), level: 37, source }
        : { email: ctx.text(`/collaborators/${i}/email`, item.email ?? "").trim(), level: 37, source };
    const key = collaborator.user_uuid ?? `email ${asciiLower(collaborator.email ?? "")}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const field = item.user_uuid !== undefined ? "user_uuid" : "email";
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
