/**
 * Names for the users a plan mentions (collaborators, who last modified a drifted object), so outputs
 * say `Ana Lima <ana@acme.com>` instead of a UUID. First from what the read stage already holds: any
 * user record in the live state (a dashboard's `created_by`, a collaborator's `user`), whatever its kind;
 * then, only for users still unknown, the organization's members list, read once per organization
 * (`GET /api/organizations/{id}/members/`, a GET like every read). A key without the scope to read
 * members, or any other refusal, leaves those users unknown: outputs then show the UUID. Never fails a
 * plan for a name.
 */
import { isUserError } from "../errors.js";
import type { Action, LiveProject, Person, Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { StoppedError } from "../service/stop.js";

/** The UUIDs of the users a plan's actions name. */
export function mentionedUsers(actions: readonly Action[]): Set<string> {
  const uuids = new Set<string>();
  for (const a of actions) {
    for (const side of [a.after, a.before]) {
      if (typeof side?.user_uuid === "string") uuids.add(side.user_uuid.toLowerCase());
    }
    if (a.modified?.by !== undefined) uuids.add(a.modified.by.toLowerCase());
  }
  return uuids;
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
  return { uuid: value.uuid.toLowerCase(), person };
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

/** One members list per organization per run, and one project → organization lookup per project. */
export class MemberDirectory {
  readonly #client: ServiceClient;
  readonly #orgs = new Map<number, Promise<string | undefined>>();
  readonly #members = new Map<string, Promise<unknown[]>>();

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  /** The members of the project's organization (empty when they cannot be read). */
  async membersOf(project: number): Promise<unknown[]> {
    let org = this.#orgs.get(project);
    if (org === undefined) {
      org = quietly(async () => String((await this.#client.organizations.getProject(project)).organization));
      this.#orgs.set(project, org);
    }
    const id = await org;
    if (id === undefined) return [];
    let members = this.#members.get(id);
    if (members === undefined) {
      const path = `/api/organizations/${encodeURIComponent(id)}/members/`;
      members = quietly(() => this.#client.listAll<{ id: unknown }>(path)).then((list) => list ?? []);
      this.#members.set(id, members);
    }
    return members;
  }
}

/** The value, or undefined when the service refused or answered something unreadable; a stop goes on. */
async function quietly<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof StoppedError || !isUserError(error)) throw error;
    return undefined;
  }
}

/**
 * The plan with `people` for the users its actions name, or the plan as it is when it names none.
 * `directory` is asked only for users the live state does not describe.
 */
export async function withPeople(
  plan: Plan,
  live: readonly LiveProject[],
  directory: Pick<MemberDirectory, "membersOf"> | undefined,
): Promise<Plan> {
  const wanted = mentionedUsers(plan.actions);
  if (wanted.size === 0) return plan;
  const found = new Map<string, Person>();
  for (const project of live) peopleIn(project.kinds, wanted, found);
  const missing = new Set([...wanted].filter((uuid) => !found.has(uuid)));
  if (missing.size > 0 && directory !== undefined) {
    const projects = new Set(
      plan.actions
        .filter((a) => [...mentionedUsers([a])].some((uuid) => missing.has(uuid)))
        .map((a) => a.object.project),
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
