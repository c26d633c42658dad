/**
 * The read stage: live state for the projects the files declare, with the fewest requests (SPEC §6):
 * each kind reads its list (100 per page, the pages after the first in parallel) and only the details
 * its declarations need, and so does a kind the files do not list whose objects their references
 * name by name; the organization's features only when the plan depends on them. Sends GET requests
 * only.
 */
import { type DesiredProject, declaredOf, type SourceRef } from "../config/types.js";
import { UserError } from "../errors.js";
import type { Features, LiveKind, LiveProject } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { ServiceError } from "../service/errors.js";
import { featureKeys } from "../service/events.js";
import type { ReadKind, ReadRun, ReadScope } from "./kinds.js";
import { MemberDirectory } from "./people.js";

/** A new run's shared reads. */
export function newReadRun(client: ServiceClient): ReadRun {
  return { members: new MemberDirectory(client) };
}

/**
 * What was read for one project, per kind (each kind's own record). Saved with a plan, so `apply --plan`
 * reads exactly the same things again and its fingerprints compare like with like.
 */
export interface ReadSet {
  project: number;
  kinds: Record<string, unknown>;
  /** A change-scoped read's scope per kind (`--changed-only`): read again the same way. */
  scope?: Record<string, ReadScope>;
}

export interface LiveRead {
  live: LiveProject[];
  reads: ReadSet[];
}

/** Live state for what the files declare: the kinds each project's files manage. */
export async function fetchLiveState(
  kinds: readonly ReadKind[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  run: ReadRun = newReadRun(client),
): Promise<LiveRead> {
  const projects = desired.filter((p): p is DesiredProject & { project: number } => p.project !== undefined);
  const read = await Promise.all(
    projects.map((p) =>
      inProject(
        p.project,
        async () => {
          const managed = kinds.filter((k) => p.manages.includes(k.name) || namedIn(p).has(k.name));
          const results = await Promise.all(
            managed.map((k) => k.read(client, p.project, declaredOf(p, k.name), run)),
          );
          const live: LiveProject = { project: p.project, kinds: {} };
          const reads: ReadSet = { project: p.project, kinds: {} };
          managed.forEach((k, i) => {
            live.kinds[k.name] = results[i]?.live as LiveKind;
            reads.kinds[k.name] = results[i]?.read;
          });
          return { live, reads };
        },
        p.projectAt?.[0],
      ),
    ),
  );
  return { live: read.map((r) => r.live), reads: read.map((r) => r.reads) };
}

/**
 * The kinds a project's declarations name objects of by name (their references): read even where the
 * files do not list them, since a name resolves among the live objects too (SPEC §2), but never
 * planned nor pruned there (nothing of theirs is declared, and prune follows `manages`).
 */
function namedIn(project: DesiredProject): Set<string> {
  const named = new Set<string>();
  for (const kind of project.manages) {
    for (const declared of declaredOf(project, kind)) {
      if (declared.deleted) continue;
      for (const ref of declared.refs ?? []) if (ref.name !== undefined) named.add(ref.kind);
    }
  }
  return named;
}

/** Live state read again exactly as recorded (for a saved plan). */
export async function refetchLiveState(
  kinds: readonly ReadKind[],
  client: ServiceClient,
  reads: readonly ReadSet[],
  run: ReadRun = newReadRun(client),
): Promise<LiveProject[]> {
  return Promise.all(
    reads.map((r) =>
      inProject(r.project, async () => {
        const live: LiveProject = { project: r.project, kinds: {} };
        const names = Object.keys(r.kinds);
        const unknown = names.find((name) => !kinds.some((k) => k.name === name));
        if (unknown !== undefined) throw new UserError(`the saved plan reads an unknown kind "${unknown}"`);
        const results = await Promise.all(
          names.map((name) =>
            kinds
              .find((k) => k.name === name)
              ?.reread(client, r.project, r.kinds[name], run, r.scope?.[name]),
          ),
        );
        names.forEach((name, i) => {
          live.kinds[name] = results[i] as LiveKind;
        });
        return live;
      }),
    ),
  );
}

/**
 * Names the project in a service error: "Project not found." or a 403 on one of several projects says
 * nothing about which one without it. A project the key cannot reach at all (it does not exist, the
 * key's user is no member, the key is limited to other projects) is an error at the `project:` line
 * that names it, with what to check.
 */
export async function inProject<T>(project: number, read: () => Promise<T>, at?: SourceRef): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const unreachable =
      (error.status === 404 && /project not found/i.test(error.message)) ||
      (error.status === 403 && /access to the (requested )?project/i.test(error.message));
    if (unreachable && at !== undefined) {
      throw new UserError(
        `project ${project} cannot be reached with this key (${error.message}): check the id, that the key's user is a member of the project, and that the key is not limited to other projects (posthog-gitops whoami shows which it may reach)`,
        "service_error",
        { at },
      );
    }
    throw new UserError(`reading project ${project}: ${error.message}`);
  }
}

/**
 * The organization's paid features for a project: two GETs (project → organization), made only when a
 * plan depends on them, so a no-op plan never pays for them.
 */
export async function fetchFeatures(client: ServiceClient, project: number): Promise<Features> {
  const { organization } = await client.organizations.getProject(project);
  const keys = featureKeys(await client.organizations.get(String(organization)));
  return {
    tagging: keys.has("tagging"),
    access_control: keys.has("access_control") || keys.has("advanced_permissions"),
  };
}
