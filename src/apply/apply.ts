/**
 * Executes a plan. Actions of one object run in plan order (create/restore, update, collaborator
 * removes then adds, sharing, pause/unpause, tiles); independent objects run concurrently (bounded);
 * deletes run last, and a delete is skipped when other work on an object of the same name failed (a
 * replace must not remove the old export when the new one was not created). An object whose actions
 * refer to others (the plan data `requires`: a dashboard's tiles, the insights they show; a flag, the
 * flags it depends on; and `required_by`: when it goes down, the flags that depend on it) starts after
 * the work on those, deletes among themselves too, and such an action is skipped when that work failed
 * or is held for approval; the ids that work created or found are handed on. After a failure the object's remaining actions are skipped, other objects carry on,
 * and every action gets exactly one result. A change an approval policy holds is `pending`. The
 * names of a kind's creates in a project are looked up together, right before the first of them
 * (./lookups.ts).
 */
import pLimit from "p-limit";
import { isUserError, UserError } from "../errors.js";
import type { Env } from "../plan/secrets.js";
import { type Action, type LiveProject, objectKey, type Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { ServiceError } from "../service/errors.js";
import { StoppedError } from "../service/stop.js";
import { executeAction } from "./execute.js";
import type { ApplyKind, Reference } from "./kinds.js";
import { type LiveIds, lookUpNames, totalOf } from "./lookups.js";

/**
 * `skipped`: not tried because other work on the object (or on an object it refers to) failed;
 * `not_started`: not tried because the run was stopping (Ctrl-C / SIGTERM): nothing was sent for it;
 * `pending`: an approval policy of the organization holds the change (not live; `change_request` names
 * the request an approver must accept).
 */
export type Outcome = "ok" | "failed" | "skipped" | "not_started" | "pending";

export interface ActionResult {
  action: Action;
  outcome: Outcome;
  /** The object's id after the action (set by creates). */
  id?: number | string;
  /** Why it failed or was skipped. */
  error?: string;
  /** The change request an approval policy opened instead (outcome `pending`). */
  change_request?: string;
  notes: string[];
}

export interface ApplyDeps {
  /** The kinds the plan's actions belong to. */
  kinds: readonly ApplyKind[];
  client: ServiceClient;
  env: Env;
  /** Objects worked on at once; default 4. */
  concurrency?: number;
  /** Called once per action, as soon as its outcome is known. */
  onResult?: (result: ActionResult) => void;
  /** Aborted when the run must stop: no further action starts (requests in flight finish). */
  signal?: AbortSignal;
  /**
   * The live state the plan was made from: its counts decide whether a batch of names is looked up
   * with one search each or one walk of the list. Absent: one search each (where the kind has one).
   */
  live?: readonly LiveProject[];
}

const NOT_STARTED = "not started: the run was stopped";

export async function applyPlan(plan: Plan, deps: ApplyDeps): Promise<ActionResult[]> {
  const isDelete = (a: Action) =>
    deps.kinds.some((k) => k.name === a.object.kind && k.verbs.some((v) => v.name === a.action && v.deletes));
  const results: ActionResult[] = [];
  const report = (result: ActionResult) => {
    results.push(result);
    deps.onResult?.(result);
  };
  // One group per object: its name (objects of one name share the delete guard) and its id (pinned
  // objects may share a name, as pulled insights do; a replacement's actions carry the old id).
  const groups = new Map<string, Action[]>();
  const deletes = new Map<string, Action[]>();
  const knownIds = planKnownIds(plan);
  for (const action of plan.actions) {
    const into = isDelete(action) ? deletes : groups;
    const key = groupKey(action);
    into.set(key, [...(into.get(key) ?? []), action]);
  }
  // What runs first: the objects the action requires, and those that refer to what it takes down.
  const referencesOf = (action: Action): readonly Reference[] => [
    ...(action.requires ?? []),
    ...(action.required_by ?? []),
  ];
  const refKey = (action: Action, ref: Reference) =>
    objectKey({ project: action.object.project, kind: ref.kind, name: ref.name });
  /** Ids learnt per object name: live ids, and the ids creates returned. */
  const ids = new Map<string, number | string>();
  const failedKeys = new Set<string>();
  const lookUp = batchLookUps(plan, deps);
  /** Objects whose change an approval policy holds (by name): not live, so what needs them waits too. */
  const held = new Set<string>();
  const runGroup = async (actions: readonly Action[]) => {
    let id = actions[0]?.object.id;
    let failure: string | undefined;
    let stopped = false;
    for (const action of actions) {
      if (stopped || deps.signal?.aborted) {
        report({ action, outcome: "not_started", error: NOT_STARTED, notes: [] });
        continue;
      }
      if (failure !== undefined) {
        report({ action, outcome: "skipped", error: `skipped: ${failure}`, notes: [] });
        continue;
      }
      const needed = referencesOf(action).find((ref) => failedKeys.has(refKey(action, ref)));
      if (needed !== undefined) {
        const word = deps.kinds.find((k) => k.name === needed.kind)?.words.one ?? needed.kind;
        const why = held.has(refKey(action, needed)) ? "waits for approval" : "failed";
        report({
          action,
          outcome: "skipped",
          error: `skipped: the work on ${word} "${needed.name}" ${why}`,
          notes: [],
        });
        continue;
      }
      try {
        const kind = deps.kinds.find((k) => k.name === action.object.kind);
        if (kind === undefined) throw new UserError(`unknown kind "${action.object.kind}" in the plan`);
        const done = await executeAction(kind, action, id, {
          client: deps.client,
          env: deps.env,
          knownIds: knownIds.get(kindKey(action.object)) ?? new Set(),
          referenced: {
            // The live id the plan holds, else the one this apply's work on the object learnt.
            idOf: (ref) =>
              action.requires?.find((r) => r.kind === ref.kind && r.name === ref.name)?.id ??
              ids.get(refKey(action, ref)),
          },
          lookUp: () => lookUp(kind, action),
        });
        id = done.id ?? id;
        if (id !== undefined) ids.set(objectKey(action.object), id);
        report({ action, outcome: "ok", ...(id !== undefined ? { id } : {}), notes: done.notes });
      } catch (error) {
        failedKeys.add(objectKey(action.object));
        if (error instanceof StoppedError) {
          // Its request was never sent: the object is as it was before.
          report({ action, outcome: "not_started", error: NOT_STARTED, notes: [] });
          stopped = true;
          continue;
        }
        const changeRequest = error instanceof ServiceError ? error.changeRequestId : undefined;
        if (changeRequest !== undefined) {
          // Not live: an approval policy holds the change, the object is as it was (SPEC §3).
          held.add(objectKey(action.object));
          failure = `${action.action} of ${action.object.kind} "${action.object.name}" waits for approval (change request ${changeRequest})`;
          report({
            action,
            outcome: "pending",
            change_request: changeRequest,
            error: `pending approval: change request ${changeRequest} (${messageOf(error)})`,
            notes: [],
          });
          continue;
        }
        failure = `${action.action} of ${action.object.kind} "${action.object.name}" failed`;
        report({ action, outcome: "failed", error: messageOf(error), notes: [] });
      }
    }
  };
  const limit = pLimit(Math.max(1, deps.concurrency ?? 4));
  /**
   * Runs a batch of groups, each after the groups of the batch its actions refer to. Waiting happens
   * outside the limit, so a group waiting for others never holds one of its slots; a cycle (never
   * planned) is cut where it closes. `each` runs one group once its turn has come.
   */
  const runBatch = async (
    batch: ReadonlyMap<string, Action[]>,
    each: (actions: Action[]) => Promise<void>,
  ) => {
    const byName = new Map<string, string[]>();
    for (const [key, actions] of batch) {
      const name = objectKey(actions[0]!.object);
      byName.set(name, [...(byName.get(name) ?? []), key]);
    }
    const started = new Map<string, Promise<void>>();
    const visiting = new Set<string>();
    const start = (key: string): Promise<void> => {
      const known = started.get(key);
      if (known) return known;
      const actions = batch.get(key) as Action[];
      visiting.add(key);
      const before = new Set<string>();
      for (const action of actions) {
        for (const ref of referencesOf(action)) {
          for (const other of byName.get(refKey(action, ref)) ?? []) {
            if (other !== key && !visiting.has(other)) before.add(other);
          }
        }
      }
      const waits = [...before].map(start);
      visiting.delete(key);
      const run = Promise.all(waits).then(() => limit(() => each(actions)));
      started.set(key, run);
      return run;
    };
    await Promise.all([...batch.keys()].map(start));
  };
  await runBatch(groups, runGroup);
  await runBatch(deletes, async (actions) => {
    const key = objectKey(actions[0]!.object);
    for (const action of actions) {
      if (deps.signal?.aborted) {
        report({ action, outcome: "not_started", error: NOT_STARTED, notes: [] });
      } else if (failedKeys.has(key)) {
        report({
          action,
          outcome: "skipped",
          error: "skipped: other work on this object failed",
          notes: [],
        });
      } else {
        await runGroup([action]);
      }
    }
  });
  return results;
}

/**
 * The look-up of a create's name: the first create of a kind in a project looks up the names of all
 * the plan's creates of that kind there (once; the others share its answer).
 */
function batchLookUps(
  plan: Plan,
  deps: ApplyDeps,
): (kind: ApplyKind, action: Action) => Promise<ReadonlyArray<number | string>> {
  const names = new Map<string, Set<string>>();
  for (const { action, object } of plan.actions) {
    if (action !== "create") continue;
    const key = kindKey(object);
    names.set(key, (names.get(key) ?? new Set()).add(object.name));
  }
  const batches = new Map<string, Promise<LiveIds>>();
  return async (kind, { object }) => {
    const key = kindKey(object);
    let batch = batches.get(key);
    if (batch === undefined) {
      const total = totalOf(deps.live, object.project, object.kind);
      const wanted = names.get(key) ?? new Set([object.name]);
      batch = lookUpNames(kind, deps.client, object.project, wanted, total);
      batches.set(key, batch);
    }
    return (await batch).get(object.name) ?? [];
  };
}

/** One object's actions in apply: its name and its id (a created object has none until its create). */
function groupKey(action: Action): string {
  return `${objectKey(action.object)}#${action.object.id ?? ""}`;
}

/** `project/kind`: where names must be unique. */
export const kindKey = (ref: { project: number; kind: string }) => `${ref.project}/${ref.kind}`;

/** The live ids the plan's actions name, per project and kind. */
export function planKnownIds(plan: Plan): Map<string, Set<number | string>> {
  const known = new Map<string, Set<number | string>>();
  for (const { object } of plan.actions) {
    if (object.id === undefined) continue;
    const key = kindKey(object);
    known.set(key, (known.get(key) ?? new Set()).add(object.id));
  }
  return known;
}

function messageOf(error: unknown): string {
  if (isUserError(error)) return error.message;
  return error instanceof Error ? `internal error: ${error.message}` : String(error);
}
