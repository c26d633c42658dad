/**
 * Names for the users a plan mentions (those its actions' verbs name, such as collaborators, and who
 * last modified a drifted object), so outputs say `Ana Lima <ana@acme.com>` instead of a UUID. First
 * from what the read stage already holds: any user record in the live state (an object's creator, a
 * collaborator's `user`), whatever its kind; then, only for users still unknown, the organization's
 * members list, read once per organization (`GET /api/organizations/{id}/members/`, a GET like every
 * read). A key without the scope to read members, or any other refusal, leaves those users unknown:
 * outputs then show the UUID. Never fails a plan for a name.
 *
 * The same directory (`MemberDirectory`, one per run) serves the read stage, where a kind's read hook
 * resolves declared users against the members list (`ReadRun`), so a run reads each organization's
 * members at most once, whoever asks first.
 */
import { isUserError } from "../errors.js";
import type { Action, LiveProject, Person, Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { ServiceError } from "../service/errors.js";
import { StoppedError } from "../service/stop.js";
import type { OrganizationMember } from "../service/types.js";
import { asciiLower } from "../text.js";

/** What the read stage needs of an action verb: the users its actions name, to say who they are. */
export interface ReadVerb {
  readonly name: string;
  /** The UUIDs of the users an action names (a collaborator's); absent: none. */
  readonly users?: (action: Action) => readonly string[];
}

/** The kinds a plan was made with: their verbs say which users an action names (`users`). */
type VerbsOf = readonly { readonly verbs: readonly ReadVerb[] }[];

/** Who one action names, in lower case: the users its verb says, and who last modified a drifted object. */
function usersOf(kinds: VerbsOf): (action: Action) => string[] {
  const users = new Map<string, ReadVerb["users"]>();
  for (const kind of kinds) {
    for (const verb of kind.verbs) if (!users.has(verb.name)) users.set(verb.name, verb.users);
  }
  return (action) => {
    const named = [...(users.get(action.action)?.(action) ?? [])];
    if (action.modified?.by !== undefined) named.push(action.modified.by);
    return named.map(asciiLower);
  };
}

/** A user record as the service writes one (`UserBasic`): a UUID and an email or a name. */
function asPerson(value: Record<string, unknown>): { uuid: string; person: Person } | undefined {
  if (typeof value.uuid !== "string") return undefined;
  const email = typeof value.email === "string" ? value.email : undefined;
  const first = typeof value.first_name === "string" ? value.first_name : "";
  const last = typeof value.last_name === "string" ? value.last_name : "";
  const name = `${first} ${last}`.trim();
  if (email === undefined && name === "") return undefined;
  const person: Person = {};
  if (name !== "") person.name = name;
  if (email !== undefined && email !== "") person.email = email;
  return { uuid: asciiLower(value.uuid), person };
}

/** Every user record in `value` whose UUID is wanted; a bounded walk (depth and nodes). */
export function peopleIn(value: unknown, wanted: ReadonlySet<string>, found: Map<string, Person>): void {
  let budget = 1_000_000;
  const walk = (node: unknown, depth: number): void => {
    if (budget-- <= 0 || depth > 8 || typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const hit = asPerson(record);
    if (hit !== undefined && wanted.has(hit.uuid) && !found.has(hit.uuid)) found.set(hit.uuid, hit.person);
    for (const child of Object.values(record)) {
      if (typeof child === "object" && child !== null) walk(child, depth + 1);
    }
  };
  walk(value, 0);
}

/**
 * What reading a project's members gave: the list, or the refusal in words that name what the key
 * lacks (a project-scoped key, a missing scope), for a plan to say once.
 */
export type MembersRead = { members: OrganizationMember[] } | { refused: string };

type Outcome = { members: OrganizationMember[] } | { error: unknown };

/**
 * One members list per organization per run, and one project → organization lookup per project, shared
 * by whoever asks: the collaborator check of the read stage and the naming of people after the plan.
 */
export class MemberDirectory {
  readonly #client: ServiceClient;
  readonly #orgs = new Map<number, Promise<string>>();
  readonly #members = new Map<string, Promise<Outcome>>();

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  #read(project: number): Promise<Outcome> {
    let org = this.#orgs.get(project);
    if (org === undefined) {
      org = this.#client.organizations.getProject(project).then((p) => String(p.organization));
      this.#orgs.set(project, org);
    }
    return org.then(
      (id) => {
        let members = this.#members.get(id);
        if (members === undefined) {
          members = this.#client.organizations.members(id).then(
            (list) => ({ members: list }),
            (error: unknown) => ({ error }),
          );
          this.#members.set(id, members);
        }
        return members;
      },
      (error: unknown) => ({ error }),
    );
  }

  /** The members of the project's organization (empty when they cannot be read). */
  async membersOf(project: number): Promise<OrganizationMember[]> {
    const outcome = await this.#read(project);
    if ("members" in outcome) return outcome.members;
    if (outcome.error instanceof StoppedError || !isUserError(outcome.error)) throw outcome.error;
    return [];
  }

  /**
   * The members, or why the key may not read them (the service's 403, or a 404 from a service without
   * the route); any other failure (no answer, a 5xx, an answer of the wrong shape) is thrown: a check
   * that could not run must not pass as one that found nothing.
   */
  async check(project: number): Promise<MembersRead> {
    const outcome = await this.#read(project);
    if ("members" in outcome) return outcome;
    const { error } = outcome;
    if (isRefusal(error)) {
      return { refused: organizationRefusal(error, "the organization's members list", MEMBERS_SCOPE) };
    }
    throw error;
  }
}

/**
 * Why an organization endpoint refused the key, naming what the key needs: `what` is what was read
 * ("the organization's members list"), `scope` the scope it needs.
 */
export function organizationRefusal(error: ServiceError, what: string, scope: string): string {
  const detail = error.detail ?? "";
  if (/scoped projects/i.test(detail)) {
    return `the API key is scoped to projects, and ${what} is not a project endpoint (it needs a key with access to the organization and the scope '${scope}')`;
  }
  const missing = /scope '([^']+)'/.exec(detail)?.[1];
  if (missing !== undefined) return `the API key lacks the scope '${missing}'`;
  if (error.status === 404) return `the service has no such endpoint (${error.message})`;
  return `the service refused to read ${what} (${error.message}; it needs the scope '${scope}')`;
}

/** The scope of `GET /api/organizations/{id}/members/`. */
export const MEMBERS_SCOPE = "organization_member:read";

/** A refusal (403, or 404 from a service without the route) that a plan reports instead of failing. */
export function isRefusal(error: unknown): error is ServiceError {
  return error instanceof ServiceError && (error.status === 403 || error.status === 404);
}

/**
 * The plan with `people` for the users its actions name (by the verbs of `kinds`), or the plan as it
 * is when it names none. `directory` is asked only for users the live state does not describe.
 */
export async function withPeople(
  plan: Plan,
  live: readonly LiveProject[],
  directory: { membersOf(project: number): Promise<readonly unknown[]> } | undefined,
  kinds: VerbsOf,
): Promise<Plan> {
  const named = usersOf(kinds);
  const wanted = new Set(plan.actions.flatMap(named));
  if (wanted.size === 0) return plan;
  const found = new Map<string, Person>();
  for (const project of live) peopleIn(project.kinds, wanted, found);
  const missing = new Set([...wanted].filter((uuid) => !found.has(uuid)));
  if (missing.size > 0 && directory !== undefined) {
    const projects = new Set(
      plan.actions.filter((a) => named(a).some((uuid) => missing.has(uuid))).map((a) => a.object.project),
    );
    for (const project of [...projects].sort((a, b) => a - b)) {
      peopleIn(await directory.membersOf(project), missing, found);
    }
  }
  if (found.size === 0) return plan;
  const people: Record<string, Person> = {};
  for (const uuid of [...found.keys()].sort()) people[uuid] = found.get(uuid)!;
  return { ...plan, people: { ...plan.people, ...people } };
}
