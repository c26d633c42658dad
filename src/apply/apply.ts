/**
 * Executes a plan. Actions of one object run in plan order (create/restore, update, collaborator
 * removes then adds, sharing, pause/unpause); independent objects run concurrently (bounded), objects
 * a kind orders (`waits`: a flag others depend on first) after those they wait for; deletes run last,
 * in the same order, and a delete is skipped when other work on an object of the same name failed (a
 * replace must not remove the old export when the new one was not created). After a failure the
 * object's remaining actions are skipped, and so is the work that waits for it; other objects carry
 * on, and every action gets exactly one result. A change an approval policy holds is `pending`.
 */
import pLimit from "p-limit";
import { isUserError, UserError } from "../errors.js";
import type { Env } from "../plan/secrets.js";
import { type Action, objectKey, type Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { ServiceError } from "../service/errors.js";
import { StoppedError } from "../service/stop.js";
import { executeAction } from "./execute.js";
import type { ApplyKind } from "./kinds.js";

/**
 * `skipped`: not tried because other work on the object (or on an object it depends on) failed;
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
  const groups = new Map<string, Action[]>();
  const deletes = new Map<string, Action[]>();
  const knownIds = planKnownIds(plan);
  for (const action of plan.actions) {
    const key = objectKey(action.object);
    const into = isDelete(action) ? deletes : groups;
    into.set(key, [...(into.get(key) ?? []), action]);
  }
  /** Objects whose work did not happen (failed, or held for approval): what waits for them is skipped. */
  const failedKeys = new Set<string>();
  const held = new Map<string, string>();
  const runGroup = async (key: string, actions: readonly Action[]) => {
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
      try {
        const kind = deps.kinds.find((k) => k.name === action.object.kind);
        if (kind === undefined) throw new UserError(`unknown kind "${action.object.kind}" in the plan`);
        const done = await executeAction(kind, action, id, {
          client: deps.client,
          env: deps.env,
          knownIds: knownIds.get(kindKey(action.object)) ?? new Set(),
        });
        id = done.id ?? id;
        report({ action, outcome: "ok", ...(id !== undefined ? { id } : {}), notes: done.notes });
      } catch (error) {
        failedKeys.add(key);
        if (error instanceof StoppedError) {
          // Its request was never sent: the object is as it was before.
          report({ action, outcome: "not_started", error: NOT_STARTED, notes: [] });
          stopped = true;
          continue;
        }
        const changeRequest = error instanceof ServiceError ? error.changeRequestId : undefined;
        if (changeRequest !== undefined) {
          // Not live: an approval policy holds the change, the object is as it was (SPEC §3).
          held.set(key, changeRequest);
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
   * Runs every object of `batch` once the objects it waits for are done; an object whose prerequisite
   * did not happen is skipped (its dependents would be refused by the service, or depend on nothing).
   */
  const runBatch = async (batch: ReadonlyMap<string, Action[]>, suffix: string) => {
    const waits = acyclic(collectWaits(deps.kinds, batch));
    const started = new Map<string, Promise<void>>();
    const start = (key: string): Promise<void> => {
      const known = started.get(key);
      if (known !== undefined) return known;
      const actions = batch.get(key) ?? [];
      const run = (async () => {
        const before = (waits.get(key) ?? []).filter((k) => batch.has(k));
        await Promise.all(before.map(start));
        const blocked = before.find((k) => failedKeys.has(k) || held.has(k));
        if (blocked !== undefined) {
          const other = batch.get(blocked)?.[0]?.object;
          const why = `skipped: ${other ? `${other.kind} "${other.name}"` : blocked}, which it depends on, was not changed`;
          failedKeys.add(key);
          for (const action of actions) report({ action, outcome: "skipped", error: why, notes: [] });
          return;
        }
        await limit(async () => {
          if (suffix !== "" && deps.signal?.aborted) {
            for (const action of actions)
              report({ action, outcome: "not_started", error: NOT_STARTED, notes: [] });
            return;
          }
          if (suffix !== "" && (failedKeys.has(key) || held.has(key))) {
            for (const action of actions) {
              report({
                action,
                outcome: "skipped",
                error: "skipped: other work on this object failed",
                notes: [],
              });
            }
            return;
          }
          await runGroup(`${key}${suffix}`, actions);
          if (failedKeys.has(`${key}${suffix}`)) failedKeys.add(key);
        });
      })();
      started.set(key, run);
      return run;
    };
    await Promise.all([...batch.keys()].map(start));
  };
  await runBatch(groups, "");
  await runBatch(deletes, "#delete");
  return results;
}

/** What each object of `batch` waits for, from its kind (objects of one kind and project together). */
function collectWaits(
  kinds: readonly ApplyKind[],
  batch: ReadonlyMap<string, Action[]>,
): Map<string, string[]> {
  const byKind = new Map<string, Map<string, Action[]>>();
  for (const [key, actions] of batch) {
    const first = actions[0];
    if (first === undefined) continue;
    const group = kindKey(first.object);
    byKind.set(group, (byKind.get(group) ?? new Map()).set(key, actions));
  }
  const waits = new Map<string, string[]>();
  for (const objects of byKind.values()) {
    const kind = kinds.find((k) => k.name === [...objects.values()][0]?.[0]?.object.kind);
    for (const [key, before] of kind?.waits?.(objects) ?? []) waits.set(key, before);
  }
  return waits;
}

/** The waits without the edges that would close a cycle (a cycle would wait forever). */
function acyclic(waits: Map<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const visit = (key: string) => {
    state.set(key, "open");
    const kept: string[] = [];
    for (const next of waits.get(key) ?? []) {
      if (state.get(next) === "open") continue;
      if (!state.has(next)) visit(next);
      kept.push(next);
    }
    out.set(key, kept);
    state.set(key, "done");
  };
  for (const key of waits.keys()) if (!state.has(key)) visit(key);
  return out;
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
