/**
 * Actions (SPEC §2 "Cohorts and actions", service-api.md §13): a PostHog model (../define/model.ts)
 * with its field table (fields.ts: steps in their comparable form, steps.ts) and what a table cannot
 * say: names are unique among the project's declarations, pinned ones too (the service keeps them
 * unique among live actions: two declarations of one name could never both be live); a restore
 * whose name another live action holds is a plan error (the service would let two live actions
 * share it); pinning sends the plan's time as `pinned_at`, which the service replaces with its own; a
 * create past the service's 500 live actions gets a warning; a soft delete runs after the cohorts and
 * insights that hold the action's id and warns of those that still will (the service never refuses it).
 * Soft-deleted actions are read by id (a pinned one is restored with a compared update). The list
 * is one request (service.ts).
 */
import type { ProjectProblem } from "../../config/kinds.js";
import type { Declared, DesiredProject } from "../../config/types.js";
import type { Action } from "../../plan/types.js";
import type { ReferenceSpec } from "../define/index.js";
import { defineModel, type ModelActionContext, modelBody } from "../define/model.js";
import { type Holder, liveReferrers } from "../define/referrers.js";
import type { Verb } from "../kind.js";
import { ACTION_ANSWERS, type PostHogAction } from "./answers.js";
import { actionFields, type DesiredAction } from "./fields.js";
import { ACTION_SCOPES } from "./scopes.js";
import { ACTION_ENDPOINTS } from "./service.js";

type LiveAction = PostHogAction & { name: string };
type About = ModelActionContext<DesiredAction, LiveAction, { objects: LiveAction[] }>;

/** The body of a create or update: `pinned` is the service's `pinned_at` (`sends`, stamped at plan). */
const body: Verb["body"] = (action, env, owner, referenced) => {
  const out = modelBody(actionFields, action, env, owner, referenced);
  delete out.pinned;
  return out;
};

/** Where other objects store an action's id: behavioral conditions, a sequence's second event, series. */
const ANY_ACTION: readonly ReferenceSpec[] = [
  { kind: "action", at: "**", where: { event_type: "actions" }, name: "action", id: "key" },
  { kind: "action", at: "**", where: { seq_event_type: "actions" }, name: "seq_action", id: "seq_event" },
  { kind: "action", at: "**", where: { kind: "ActionsNode" }, name: "action", id: "id" },
  { kind: "action", at: "**", where: { type: "actions" }, name: "action", id: "id" },
];
const ACTION_HOLDERS: readonly Holder[] = [
  { kind: "cohort", field: "filters", specs: ANY_ACTION },
  { kind: "insight", field: "query", specs: ANY_ACTION },
];

/** The service's limit of live actions in a project (`analytics.max_actions_per_team`). */
const MAX_ACTIONS = 500;

/** What only actions need of the model's plan (see the module's comment). */
function actionHook(action: Action, about: About): Action | undefined {
  const { desired, live, ctx } = about;
  if (action.action === "soft_delete" && live !== undefined) return softDelete(action, live, about);
  if (action.action === "create") {
    const total = liveActionsAfter(ctx);
    if (total > MAX_ACTIONS) {
      action = {
        ...action,
        warnings: [
          ...action.warnings,
          `the project would hold ${total} live actions: the service refuses a create past ${MAX_ACTIONS} ("Resource limit exceeded.", 402)`,
        ],
      };
    }
  }
  if (action.action === "restore" && desired !== undefined && live !== undefined) {
    const holder = ctx.live.objects.find(
      (o) => o.id !== live.id && o.deleted !== true && o.name === desired.name,
    );
    if (holder !== undefined) {
      ctx.sink.errors.push({
        message: `action "${desired.name}" pins action ${live.id}, which is soft-deleted, and live action ${holder.id} holds its name: the service keeps action names unique, so restoring it would leave two live actions of one name; tombstone or rename one of them first`,
        source: desired.source,
      });
      return undefined;
    }
  }
  const pinned = action.after?.pinned;
  if ((action.action === "create" || action.action === "update") && typeof pinned === "boolean") {
    const pinnedAt = pinned ? ctx.options.now.toISOString() : null;
    return { ...action, sends: { ...action.sends, pinned_at: pinnedAt } };
  }
  return action;
}

/**
 * A soft delete: after the live cohorts and insights that hold its id (the service never refuses it,
 * and they would keep a dangling id), with a warning naming those that still will.
 */
function softDelete(action: Action, live: LiveAction, { ctx }: About): Action {
  const view = ctx.others ?? {
    declared: () => [],
    live: (kind: string) => (kind === "action" ? ctx.live : undefined),
  };
  const target = { kind: "action", id: live.id, name: live.name };
  const referrers = liveReferrers(target, ACTION_HOLDERS, view);
  const still = liveReferrers(target, ACTION_HOLDERS, view, true);
  const words = (kind: string) => kind.replaceAll("_", " ");
  const warnings =
    still.length > 0
      ? [
          `still used by ${still.map((l) => `${words(l.kind)} "${l.name}"`).join(", ")}: the service deletes it all the same, and they keep its id, matching nothing`,
        ]
      : [];
  return {
    ...action,
    ...(referrers.length > 0 ? { required_by: referrers } : {}),
    warnings: [...action.warnings, ...warnings],
  };
}

/** How many live actions the project holds after this plan's creates (its deletes not counted). */
function liveActionsAfter(ctx: About["ctx"]): number {
  const live = ctx.live.objects.filter((o) => o.deleted !== true);
  const names = new Set(live.map((o) => o.name));
  const ids = new Set(ctx.live.objects.map((o) => String(o.id)));
  const created = (ctx.others?.declared("action") ?? []).filter(
    (d) => !d.deleted && (d.id !== undefined ? !ids.has(String(d.id)) : !names.has(d.name)),
  );
  return live.length + created.length;
}

/** Names are unique among the project's declarations, pinned or not (the generic check: unpinned ones). */
function uniqueNames(project: DesiredProject): ProjectProblem[] {
  const first = new Map<string, Declared>();
  const problems: ProjectProblem[] = [];
  for (const d of project.objects.action ?? []) {
    if (d.deleted) continue;
    const seen = first.get(d.name);
    if (seen === undefined) first.set(d.name, d);
    else if (seen.id !== undefined || d.id !== undefined) {
      const at = seen.source;
      problems.push({
        source: d.source,
        message: `duplicate action name "${d.name}": also declared at ${at.file}:${at.line}:${at.column}; the service keeps action names unique among live actions, pinned or not`,
      });
    }
  }
  return problems;
}

export const actionModel = defineModel<
  typeof actionFields.fields,
  PostHogAction,
  LiveAction,
  DesiredAction,
  { objects: LiveAction[] }
>({
  name: "action",
  key: "actions",
  words: { one: "action", many: "actions" },
  schema: {
    list: "Actions of the project: named sets of events that insights count and cohorts match. Listing the key (even empty) lets --prune soft-delete undeclared ones.",
    item: "An action, identified by its name (or a pinned id). Only the keys written here are managed.",
    def: "action",
  },
  fields: actionFields,
  ...ACTION_ENDPOINTS,
  scopes: ACTION_SCOPES,
  answers: ACTION_ANSWERS,
  live: (answer) => ({ ...answer, name: answer.name ?? "" }),
  // `search` is a contains-match on the name; the list answers every match to one request.
  search: { param: "search" },
  readsDeleted: true,
  verbs: { create: { body }, update: { body } },
  hooks: { action: actionHook, checkProject: uniqueNames },
});

export const actionKind = actionModel.kind;

export type { PostHogAction } from "./answers.js";
export type { DesiredAction } from "./fields.js";
