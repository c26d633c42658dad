/**
 * What one environment's project has that a shared declaration may need (SPEC §9's warnings): its
 * group types, integrations and members, each read (GET only) when some declaration needs it, and
 * the static cohorts its kinds' live state already holds (no request). A part the key may not read
 * is left unread, with a note: a check that could not run never passes as one that found nothing.
 */
import type { EnvironmentConfig } from "../config/load-types.js";
import { KINDS } from "../kinds/index.js";
import type { LiveProject } from "../plan/types.js";
import type { PromoteKind } from "../promote/kinds.js";
import {
  type EnvironmentFacts,
  integrationKey,
  type NeedAt,
  needsOf,
  objectKey,
} from "../promote/preflight.js";
import { isRefusal, MemberDirectory } from "../read/people.js";
import type { ServiceClient } from "../service/index.js";

export interface FactsWanted {
  groupTypes: boolean;
  integrations: boolean;
  members: boolean;
}

/** The needs of an environment's shared declarations. */
export function environmentNeeds(environment: EnvironmentConfig): NeedAt[] {
  return needsOf(environment, KINDS);
}

/** Which facts `needs` ask for. */
export function wantedBy(needs: readonly NeedAt[]): FactsWanted {
  return {
    groupTypes: needs.some((n) => n.need.what === "group_type"),
    integrations: needs.some((n) => n.need.what === "integration"),
    members: needs.some((n) => n.need.what === "member"),
  };
}

/** The static objects the kinds' live state of a read holds (each kind's `staticObjects`). */
export function staticObjectsOf(
  live: readonly LiveProject[],
  kinds: readonly Pick<PromoteKind, "name" | "staticObjects">[] = KINDS,
): Set<string> {
  const found = new Set<string>();
  for (const project of live) {
    for (const kind of kinds) {
      const state = project.kinds[kind.name];
      if (state === undefined) continue;
      for (const o of kind.staticObjects?.(state) ?? []) found.add(objectKey(o.kind, o.name));
    }
  }
  return found;
}

export async function readFacts(
  client: ServiceClient,
  project: number,
  live: readonly LiveProject[],
  wanted: FactsWanted,
): Promise<{ facts: EnvironmentFacts; notes: string[] }> {
  const notes: string[] = [];
  const facts: {
    groupTypes?: Map<number, string>;
    static: Set<string>;
    integrations?: Set<string>;
    members?: Set<string>;
  } = { static: staticObjectsOf(live) };
  const refused = (what: string) => (error: unknown) => {
    if (!isRefusal(error)) throw error;
    notes.push(
      `${what} of project ${project} were not read (${error.detail ?? error.message}), so they were not compared`,
    );
    return undefined;
  };
  const [groupTypes, integrations, members] = await Promise.all([
    wanted.groupTypes
      ? client.organizations.groupTypes(project).catch(refused("the group types"))
      : undefined,
    wanted.integrations ? client.integrations.listAll(project).catch(refused("the integrations")) : undefined,
    wanted.members ? new MemberDirectory(client).check(project) : undefined,
  ]);
  if (groupTypes !== undefined)
    facts.groupTypes = new Map(groupTypes.map((t) => [t.group_type_index, t.group_type]));
  if (integrations !== undefined)
    facts.integrations = new Set(integrations.map((i) => integrationKey(i.kind, i.display_name ?? "")));
  if (members !== undefined) {
    if ("refused" in members)
      notes.push(
        `the members of project ${project}'s organization were not read (${members.refused}), so they were not compared`,
      );
    else
      facts.members = new Set(
        members.members.flatMap((m) => [m.user.email.toLowerCase(), m.user.uuid.toLowerCase()]),
      );
  }
  return { facts, notes };
}
