/**
 * Executes a plan. Actions of one object run in plan order (create/restore, update, collaborator
 * removes then adds, sharing, pause/unpause); independent objects run concurrently (bounded); deletes
 * run last, and a delete is skipped when other work on an object of the same name failed (a replace must
 * not remove the old export when the new one was not created). After a failure the object's remaining
 * actions are skipped, other objects carry on, and every action gets exactly one result.
 */
import pLimit from "p-limit";
import { isUserError, UserError } from "../errors.js";
import type { Env } from "../plan/secrets.js";
import { type Action, objectKey, type Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { StoppedError } from "../service/stop.js";
import { executeAction } from "./execute.js";
import type { ApplyKind } from "./kinds.js";

/**
 * `skipped`: not tried because other work on the object failed; `not_started`: not tried because the
 * run was stopping (Ctrl-C / SIGTERM): nothing was sent for it.
 */
export type Outcome = "ok" | "failed" | "skipped" | "not_started";

export interface ActionResult {
  action: Action;
  outcome: Outcome;
  /** The object's id after the action (set by creates). */
  id?: number | string;
  /** Why it failed or was skipped. */
  error?: string;
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
  const knownIds = planKnownIds(plan);
  for (const action of plan.actions) {
    const key = objectKey(action.object);
    if (isDelete(action)) continue;
    groups.set(key, [...(groups.get(key) ?? []), action]);
  }
  const failedKeys = new Set<string>();
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
        failure = `${action.action} of ${action.object.kind} "${action.object.name}" failed`;
        report({ action, outcome: "failed", error: messageOf(error), notes: [] });
      }
    }
  };
  const limit = pLimit(Math.max(1, deps.concurrency ?? 4));
  await Promise.all([...groups].map(([key, actions]) => limit(() => runGroup(key, actions))));
  const deletes = plan.actions.filter(isDelete).map((a) => [objectKey(a.object), a] as const);
  await Promise.all(
    deletes.map(([key, action]) =>
      limit(async () => {
        if (deps.signal?.aborted) {
          report({ action, outcome: "not_started", error: NOT_STARTED, notes: [] });
          return;
        }
        if (failedKeys.has(key)) {
          report({
            action,
            outcome: "skipped",
            error: "skipped: other work on this object failed",
            notes: [],
          });
          return;
        }
        await runGroup(`${key}#delete`, [action]);
      }),
    ),
  );
  return results;
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
