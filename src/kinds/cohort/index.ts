/**
 * Cohorts (SPEC §2 "Cohorts and actions", service-api.md §12): a PostHog model (../define/model.ts)
 * with its field table (fields.ts: filters naming cohorts and actions by name, compared after the
 * service's rewrites, filters.ts) and what a table cannot say: the offline checks (checks.ts: a static
 * cohort is a container, without criteria); at plan, a cohort never switches between static and
 * dynamic, a static one's criteria are never sent, and a cohort that active flags target never gains
 * a behavioral condition (usage.ts: the service refuses each); a soft delete runs after what refers
 * to it (flags, insights, cohorts) is changed or deleted, and warns of those that will still use it
 * (the service refuses it then, and apply quotes why). Soft-deleted cohorts are read by id (a pinned one is restored with a
 * compared update). Every write but a soft delete recalculates a cohort: the plan sends none that
 * changes nothing.
 */
import type { ProjectView } from "../../plan/kinds.js";
import type { Action, LiveKind, LiveObject } from "../../plan/types.js";
import { defineModel, type ModelActionContext } from "../define/model.js";
import { liveReferrers } from "../define/referrers.js";
import { COHORT_ANSWERS, type Cohort } from "./answers.js";
import { checkCohort } from "./checks.js";
import { cohortFields, type DesiredCohort } from "./fields.js";
import { COHORT_DEFS, hasBehavioralLeaf, type Json } from "./filters.js";
import { COHORT_SCOPES } from "./scopes.js";
import { COHORT_ENDPOINTS } from "./service.js";
import { activeFlagsUsing, behavioralChain, COHORT_HOLDERS } from "./usage.js";

type LiveCohort = Cohort & LiveObject & { name: string };
type About = ModelActionContext<DesiredCohort, LiveCohort, LiveKind>;

/** What only cohorts need of the model's plan (see the module's comment). */
function cohortAction(action: Action, about: About): Action | undefined {
  const { desired, live, ctx } = about;
  const owner = `cohort "${desired?.name ?? live?.name}"`;
  const refuse = (message: string) => {
    ctx.sink.errors.push({ message, ...(desired ? { source: desired.source } : {}) });
    return undefined;
  };
  if (action.action === "soft_delete" && live !== undefined) return softDelete(action, live, about);
  if ((action.action !== "update" && action.action !== "create") || desired === undefined) return action;
  if (action.action === "update" && action.changes.some((c) => c.path === "is_static")) {
    return refuse(
      `${owner} is ${live?.is_static === true ? "static" : "dynamic"} and is declared ${desired.is_static === true ? "static" : "dynamic"}: a cohort cannot switch (static ones hold uploaded members); tombstone it and declare a new one under another name`,
    );
  }
  const sendsFilters = action.changes.some((c) => c.path === "filters" || c.path.startsWith("filters."));
  if (live?.is_static === true && sendsFilters) {
    return refuse(
      `${owner} is static: its criteria are the members uploaded to it, and the service refuses others ("Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead."); remove \`filters\`, or declare a new dynamic cohort`,
    );
  }
  if (live !== undefined && sendsFilters && live.is_static !== true) {
    const becomes = behavioralChain({ name: desired.name }, ctx.others);
    const was = hasBehavioralLeaf(live.filters);
    const flags = becomes && !was ? activeFlagsUsing(live.id, ctx.others) : [];
    if (flags.length > 0) {
      return refuse(
        `${owner} would filter on what people did (a behavioral condition${becomes && becomes.length > 1 ? `, through cohort "${becomes.at(-1)}"` : ""}) while active feature flags target it (${flags.join(", ")}): the service refuses it ("Behavioral filters cannot be added to cohorts used in feature flags."); remove it from those flags first`,
      );
    }
  }
  return action;
}

/**
 * A soft delete: after what refers to it among the live objects the plan read (flags, insights and
 * cohorts naming its id: apply changes or deletes them first), with a warning when some of them will
 * still name it (the service refuses the delete then, and apply quotes why).
 */
function softDelete(action: Action, live: LiveCohort, { ctx }: About): Action {
  const view = ctx.others ?? ownOnly(ctx.live);
  const target = { kind: "cohort", id: live.id, name: live.name };
  const referrers = liveReferrers(target, COHORT_HOLDERS, view);
  const still = liveReferrers(target, COHORT_HOLDERS, view, true);
  const words = (kind: string) => kind.replaceAll("_", " ");
  const warnings =
    still.length > 0
      ? [
          `still used by ${still.map((l) => `${words(l.kind)} "${l.name}"`).join(", ")}: the service refuses to delete a cohort that flags, insights or other cohorts use`,
        ]
      : [];
  return {
    ...action,
    ...(referrers.length > 0 ? { required_by: referrers } : {}),
    warnings: [...action.warnings, ...warnings],
  };
}

/** A view of this kind's live state alone (a plan context built without the other kinds). */
const ownOnly = (live: LiveKind): ProjectView => ({
  declared: () => [],
  live: (kind) => (kind === "cohort" ? live : undefined),
});

export const cohortModel = defineModel<typeof cohortFields.fields, Cohort, LiveCohort, DesiredCohort>({
  name: "cohort",
  key: "cohorts",
  words: { one: "cohort", many: "cohorts" },
  schema: {
    list: "Cohorts of the project: groups of persons that flags target and insights filter on. Listing the key (even empty) lets --prune soft-delete undeclared ones.",
    item: "A cohort, identified by its name (or a pinned id). Only the keys written here are managed; its members never are.",
    def: "cohort",
    defs: COHORT_DEFS,
  },
  fields: cohortFields,
  ...COHORT_ENDPOINTS,
  scopes: COHORT_SCOPES,
  answers: COHORT_ANSWERS,
  live: (answer) => ({ ...answer, name: answer.name ?? "" }),
  // The list's `search` (a trigram search: substrings first, then similar names), at most 200 characters.
  search: { param: "search", max: 200 },
  readsDeleted: true,
  hooks: {
    declare: (input, _desired, ctx) => checkCohort(input as Json, ctx),
    action: cohortAction,
    // Promotion's: a static cohort's members are each project's own, never copied.
    staticObjects: (live) =>
      (live.objects as LiveCohort[])
        .filter((c) => c.is_static === true && c.deleted !== true)
        .map((c) => ({ kind: "cohort", name: c.name })),
  },
});

export const cohortKind = cohortModel.kind;

export type { Cohort } from "./answers.js";
export type { DesiredCohort } from "./fields.js";
