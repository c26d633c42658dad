/**
 * One plan action → its request(s), through its kind (restore and replace are already separate actions
 * in the plan). Right before a create the name is looked up again (SPEC §3 "Concurrency"; with the other
 * creates of its kind, ./lookups.ts): when another apply created it since the plan was made, nothing is
 * sent and the create fails asking for a new plan.
 * A create whose answer was lost is never sent again blindly: the name is looked up first, and only a
 * create that certainly did not happen is repeated.
 */
import { UserError } from "../errors.js";
import type { Env } from "../plan/secrets.js";
import type { Action } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { ServiceError, UnknownOutcomeError } from "../service/errors.js";
import type { ApplyKind, Executed, ReferencedIds } from "./kinds.js";

export type { Executed } from "./kinds.js";

export interface ExecuteDeps {
  client: ServiceClient;
  env: Env;
  /**
   * Live ids the plan already knows in this object's project and kind (the export a replacement deletes,
   * a pinned object renamed away from this name): never mistaken for someone else's object, nor for a
   * lost create.
   */
  knownIds: ReadonlySet<number | string>;
  /** Ids of the objects the action refers to, as this apply knows them. */
  referenced?: ReferencedIds;
  /**
   * The live ids named like this create's object, from the look-up of its batch (the plan's creates of
   * its kind in its project, looked up together right before the first of them). Absent: the name is
   * looked up on its own.
   */
  lookUp?: () => Promise<ReadonlyArray<number | string>>;
}

export async function executeAction(
  kind: ApplyKind,
  action: Action,
  id: number | string | undefined,
  deps: ExecuteDeps,
): Promise<Executed> {
  const body = kind.requestBody(action, deps.env, deps.referenced);
  if (action.action === "create") return create(kind, action, body ?? {}, deps);
  if (id === undefined) {
    throw new UserError(`${action.action} of ${kind.words.one} "${action.object.name}": its id is not known`);
  }
  return kind.send(deps.client, action, id, body, deps.referenced);
}

async function create(
  kind: ApplyKind,
  action: Action,
  body: Record<string, unknown>,
  deps: ExecuteDeps,
): Promise<Executed> {
  const { project, name } = action.object;
  const others = (ids: ReadonlyArray<number | string>) => ids.filter((id) => !deps.knownIds.has(id));
  const unknown = async () => others(await kind.findByName(deps.client, project, name));
  // As close to the POST as the service allows: a second apply that planned before this one created
  // the object finds it here instead of creating it twice. (Two lookups that both come before either
  // create cannot see each other; the check after the apply reports what that leaves.)
  const existing = deps.lookUp ? others(await deps.lookUp()) : await unknown();
  if (existing.length > 0) {
    const ids = `id${existing.length === 1 ? "" : "s"} ${existing.join(", ")}`;
    throw new UserError(
      `create skipped: ${withArticle(kind.words.one)} named "${name}" now exists live (${ids}), created by someone else since the plan; run plan again`,
    );
  }
  try {
    return await kind.create(deps.client, project, body);
  } catch (error) {
    if (!(error instanceof UnknownOutcomeError)) throw error;
    // The request may have been committed: look before creating again, never create blindly.
    const found = await unknown();
    if (found.length === 1) {
      return { id: found[0], notes: ["the create's answer was lost; found the created object by name"] };
    }
    if (found.length > 1) {
      throw new UserError(
        `create of ${kind.words.one} "${name}": the answer was lost and ${found.length} objects with that name now exist (ids ${found.join(", ")}); pin the right one with \`id:\` and delete the others`,
      );
    }
    const created = await kind.create(deps.client, project, body);
    return {
      id: created.id,
      notes: [...created.notes, "the first create was not committed (its answer was lost); created again"],
    };
  }
}

function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}

/**
 * Runs a request whose particular refusal means the goal is already reached. Such a request is safe to
 * send again after an unknown outcome (e.g. a 502 after a collaborator POST): a repeat that finds the
 * work done is answered with that refusal, so one repeat settles it.
 */
export async function alreadyDone(
  request: () => Promise<unknown>,
  done: (e: ServiceError) => boolean,
): Promise<void> {
  const attempt = async () => {
    try {
      await request();
    } catch (error) {
      if (!(error instanceof ServiceError && done(error))) throw error;
    }
  };
  try {
    await attempt();
  } catch (error) {
    if (!(error instanceof UnknownOutcomeError)) throw error;
    await attempt();
  }
}
