/**
 * Declared collaborators → users, one mechanism for both ways of naming one (SPEC §2): a collaborator
 * written as `email:` or `user_uuid:` is looked up among the users already on its dashboard, then in
 * its organization's members list. The read stage asks `unresolved` whether the members list is needed
 * at all (a no-op plan never reads it), and reads it once per organization through the run's
 * `MemberDirectory`; the planner asks `resolveCollaborators`, which turns every declaration into a UUID
 * or a positioned error: someone who is not a member is refused here, at plan time, not by the service
 * half-way through an apply. Where the key may not read the list, UUIDs pass unchecked (the plan says
 * so once) and emails cannot be resolved.
 */
import type { SourceRef } from "../../config/types.js";
import type { PlanError } from "../../plan/index.js";
import { compareText } from "../../plan/values.js";
import type { MembersRead } from "../../read/people.js";
import { asciiLower, escapeNonAscii } from "../../text.js";
import type { Collaborator } from "./answers.js";

/** A declared collaborator: by UUID (lowercased) or by email (as written), exactly one of them. */
export interface DesiredCollaborator {
  user_uuid?: string;
  email?: string;
  /** Always 37 (can_edit): the only level the service accepts. */
  level: 37;
  source: SourceRef;
}

/** A resolved collaborator, as actions carry it. */
export interface ResolvedCollaborator {
  user_uuid: string;
  level: 37;
}

interface KnownUser {
  /** UUID and email with ASCII letters lower-cased (`asciiLower`): what a declaration is compared with. */
  uuid: string;
  email: string;
  /** The email as the service holds it, for messages (shown escaped). */
  shown: string;
}

/** How a declaration names its person in messages (anything outside ASCII escaped). */
export const collaboratorName = (c: DesiredCollaborator): string =>
  escapeNonAscii(c.user_uuid ?? c.email ?? "?");

/**
 * The users a lookup can find: those on the dashboard, then the organization's members (if read), each
 * record once (the same user in both lists is one).
 */
function knownUsers(onDashboard: readonly Collaborator[], members: MembersRead | undefined): KnownUser[] {
  const users = onDashboard.map((c) => c.user);
  if (members !== undefined && "members" in members) users.push(...members.members.map((m) => m.user));
  const known = new Map<string, KnownUser>();
  for (const u of users) {
    const user = { uuid: asciiLower(u.uuid), email: asciiLower(u.email ?? ""), shown: u.email ?? "" };
    known.set(`${user.uuid}\n${user.shown}`, user);
  }
  return [...known.values()];
}

/**
 * Every known user a declaration names: by UUID, or by email, compared with ASCII letters folded and
 * nothing else (a look-alike character never stands in for a letter).
 */
function matches(c: DesiredCollaborator, users: readonly KnownUser[]): KnownUser[] {
  if (c.user_uuid !== undefined) {
    const uuid = asciiLower(c.user_uuid);
    return users.filter((u) => u.uuid === uuid);
  }
  const email = asciiLower(c.email ?? "");
  return users.filter((u) => u.email !== "" && u.email === email);
}

/** The declarations the dashboard's own collaborators do not account for: they need the members list. */
export function unresolved(
  wanted: readonly DesiredCollaborator[],
  onDashboard: readonly Collaborator[],
): DesiredCollaborator[] {
  const users = knownUsers(onDashboard, undefined);
  return wanted.filter((c) => matches(c, users).length === 0);
}

export interface Resolution {
  /** Sorted by UUID; only the declarations that resolved (or passed unchecked). */
  collaborators: ResolvedCollaborator[];
  errors: PlanError[];
  /** Why the members list could not be read, when something needed it: for a note, once per plan. */
  unchecked?: string;
}

/**
 * Every declared collaborator as a UUID, or an error at its line: not a member (the list was read and
 * has no such user), the same person twice, or an email that cannot be resolved because the list could
 * not be read. `members` is what the read stage read (undefined: not read, since nothing needed it).
 */
export function resolveCollaborators(
  owner: string,
  wanted: readonly DesiredCollaborator[],
  onDashboard: readonly Collaborator[],
  members: MembersRead | undefined,
): Resolution {
  const users = knownUsers(onDashboard, members);
  const refused = members !== undefined && "refused" in members ? members.refused : undefined;
  const out: Resolution = { collaborators: [], errors: [] };
  const first = new Map<string, DesiredCollaborator>();
  for (const c of wanted) {
    const name = collaboratorName(c);
    const found = matches(c, users);
    if (found.length > 1) {
      const who = found.map((u) => `${escapeNonAscii(u.shown) || "no email"} ${escapeNonAscii(u.uuid)}`);
      out.errors.push({
        message: `collaborator ${name} of ${owner} matches ${found.length} members (${who.join(", ")}): name the right one with user_uuid:`,
        source: c.source,
      });
      continue;
    }
    const user = found[0];
    let uuid = user?.uuid;
    if (uuid === undefined) {
      if (members !== undefined && "members" in members) {
        const by = c.user_uuid !== undefined ? "UUID" : "email";
        out.errors.push({
          message: `collaborator ${name} of ${owner} is not a member of the organization (no active member has this ${by}): the service would refuse to add them; \`posthog-gitops members\` lists who can be named`,
          source: c.source,
        });
        continue;
      }
      if (c.user_uuid === undefined) {
        const why = refused ?? "the organization's members were not read";
        out.errors.push({
          message: `collaborator ${name} of ${owner} cannot be resolved to a user: ${why}; name them with user_uuid: instead`,
          source: c.source,
        });
        continue;
      }
      if (refused !== undefined) out.unchecked = refused;
      uuid = c.user_uuid;
    }
    const earlier = first.get(uuid);
    if (earlier !== undefined) {
      const { file, line, column } = earlier.source;
      const is = escapeNonAscii(user?.email ? user.email : uuid);
      out.errors.push({
        message: `collaborator ${name} of ${owner} is ${is}, listed already at ${file}:${line}:${column}`,
        source: c.source,
      });
      continue;
    }
    first.set(uuid, c);
    out.collaborators.push({ user_uuid: uuid, level: c.level });
  }
  out.collaborators.sort((a, b) => compareText(a.user_uuid, b.user_uuid));
  return out;
}

/** The plan-wide note for a members list the key may not read. */
export function uncheckedNote(why: string): string {
  return `collaborators were not checked against the organization's members: ${why}`;
}
