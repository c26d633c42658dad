/**
 * What a flag's plan adds to the model's (SPEC §3 "Feature flags"; ../define/model.ts plans the
 * create, the update of the declared fields that differ, the soft delete, the restore of a pinned
 * soft-deleted flag and the archived switch, with the flags and cohorts its filters name resolved
 * per project into `requires`):
 *
 * - a create whose filters declare no release condition is refused by the service: a plan error;
 * - a create or update that targets a cohort filtering on what people did (a behavioral condition,
 *   itself or through a dynamic cohort it contains) is refused by the service: a plan error at the
 *   reference (the cohort kind's usage.ts judges it, declared cohorts as declared);
 * - an update carries its preconditions for the service's version check (`version`, and in
 *   `original_flag` the stored values of the changed fields it compares, a changed `filters` whole),
 *   runs after the flags it depended on when planned (when it brings the flag up) or after the flags
 *   that depend on it (when it turns the flag off: `required_by`), and sends a flag's encrypted
 *   payloads all again whenever one changes (`sends`: the stored filters leave them out);
 * - a flag evaluated in the last 30 days (`last_called_at`) is live in production: turning it off,
 *   soft-deleting, archiving or re-keying it is guarded (destructive, refused without --force).
 */
import type { KindPlanContext } from "../../plan/kinds.js";
import type { Action, FieldChange } from "../../plan/types.js";
import { isPlainObject } from "../../plan/values.js";
import { flagCohortProblem } from "../cohort/usage.js";
import type { ModelActionContext } from "../define/model.js";
import { createNote, createProblem } from "./checks.js";
import { plainOverEncrypted } from "./compare.js";
import { type DesiredFlag, flagFields } from "./fields.js";
import { isObject, type Json, storedFilters } from "./filters.js";
import { type LiveFlag, type LiveFlags, liveDependencies, liveDependents } from "./live.js";
import { describeFlagField } from "./phrasing.js";

const DAY = 86_400_000;
const LIVE_DAYS = 30;

type About = ModelActionContext<DesiredFlag, LiveFlag, LiveFlags>;

/** The model's action for a flag, with what only flags need; undefined after a plan error. */
export function flagAction(action: Action, about: About): Action | undefined {
  const { live, ctx } = about;
  switch (action.action) {
    case "create":
      return create(action, about);
    case "update":
      if (!cohortsAccepted(action, about)) return undefined;
      return live ? update(action, about.desired, live, ctx) : action;
    case "restore":
      return {
        ...action,
        changes: action.changes.map((c) => ({ ...c, says: describeFlagField("deleted", true, false) })),
      };
    case "soft_delete":
    case "archive": {
      if (!live) return action;
      const guard = liveGuard(live, ctx, action.action === "archive" ? "archiving it" : "soft-deleting it");
      const dependents = liveDependents(live, ctx.live);
      return {
        ...action,
        ...(dependents.length > 0 ? { required_by: dependents } : {}),
        ...(guard ? { guard, destructive: true } : {}),
      };
    }
    default:
      return action;
  }
}

/**
 * The cohorts the action's filters target that the service refuses in a flag (a behavioral cohort,
 * itself or through a dynamic cohort it contains): an error at each reference; true when there is none.
 */
function cohortsAccepted(action: Action, { desired, ctx }: About): boolean {
  const owner = `feature flag "${desired?.name}"`;
  let ok = true;
  for (const link of action.requires ?? []) {
    if (link.kind !== "cohort") continue;
    const problem = flagCohortProblem(owner, link, ctx.others);
    if (problem === undefined) continue;
    ok = false;
    const ref = desired?.refs?.find(
      (r) =>
        r.kind === "cohort" &&
        (r.name === link.name || (r.id !== undefined && String(r.id) === String(link.id))),
    );
    ctx.sink.errors.push({
      message: problem,
      ...(ref ? { source: ref.source } : desired ? { source: desired.source } : {}),
    });
  }
  return ok;
}

function create(action: Action, about: About): Action | undefined {
  const { desired, ctx } = about;
  if (!cohortsAccepted(action, about)) return undefined;
  const problem = createProblem(desired?.filters, `feature flag "${desired?.name}"`);
  if (problem !== undefined) {
    ctx.sink.errors.push({ message: problem, ...(desired ? { source: desired.source } : {}) });
    return undefined;
  }
  const note = createNote(desired?.filters);
  if (note !== undefined) action = { ...action, warnings: [...action.warnings, note] };
  if (desired?.has_encrypted_payloads !== true) return action;
  // An encrypted payload is listed by its variable only, one change per payload key.
  const changes = action.changes.flatMap((c): FieldChange[] =>
    c.path === "filters.payloads" && isObject(c.after)
      ? Object.entries(c.after).map(([payload, ref]) => ({
          path: `filters.payloads.${payload}`,
          after: ref,
          secret: true,
          says: [`adds the encrypted payload for ${payload}`],
        }))
      : [c],
  );
  return { ...action, changes };
}

function update(
  action: Action,
  desired: DesiredFlag | undefined,
  live: LiveFlag,
  ctx: KindPlanContext<LiveFlags>,
): Action {
  const changes = action.changes.map((c) => {
    if (c.path.startsWith("filters.") || c.says !== undefined) return c;
    const says = describeFlagField(c.path, c.before, c.after);
    return says.length > 0 ? { ...c, says } : c;
  });
  // The table's fields first, then the filters' keys, as reviewers read them.
  const ordered = [
    ...changes.filter((c) => !c.path.startsWith("filters.")),
    ...changes.filter((c) => c.path.startsWith("filters.")),
  ];
  const before = structuredClone(action.before ?? {}) as Json;
  const after = structuredClone(action.after ?? {}) as Json;
  const sends = structuredClone(action.sends ?? {}) as Json;
  const encrypted = live.has_encrypted_payloads === true || desired?.has_encrypted_payloads === true;
  if (encrypted && changes.some((c) => c.path.startsWith("filters.payloads"))) {
    // The stored filters apply lays its changes over leave encrypted payloads out: all of them go.
    for (const side of [before, after]) {
      if (isObject(side.filters)) delete side.filters.payloads;
      if (isObject(side.filters) && Object.keys(side.filters).length === 0) delete side.filters;
    }
    const declared = desired === undefined ? undefined : flagFields.sent(desired as never).filters;
    sends.filters = { payloads: isObject(declared) ? declared.payloads : {} };
  }
  const turnsOff = changes.some((c) => c.path === "active" && c.after === false);
  const rekeys = changes.some((c) => c.path === "key");
  const guard =
    (turnsOff ? liveGuard(live, ctx, "turning it off") : undefined) ??
    (rekeys
      ? liveGuard(live, ctx, `renaming its key, code that checks "${live.key}" no longer finds it`)
      : undefined);
  const warnings = [...action.warnings];
  // Turning encryption off is destructive-looking: the payloads are readable from then on.
  const decrypts = changes.some((c) => c.path === "has_encrypted_payloads" && c.after === false);
  if (decrypts) {
    warnings.push(
      "turning payload encryption off stores the payloads in plain text: anyone who can read the flag reads them",
    );
  }
  if (
    changes.some((c) => c.path === "evaluation_contexts") &&
    (live.evaluation_contexts ?? []).length === 0
  ) {
    warnings.push(
      "the service keeps evaluation contexts only with its flag-evaluation-tags feature: if apply reports them ignored, leave them out of the file",
    );
  }
  // Up: after the flags its filters name and those it depended on when planned; down (turned off):
  // after the flags that depend on it (apply order, SPEC §3).
  const requires = [...(action.requires ?? [])];
  if (!turnsOff) {
    for (const link of liveDependencies(live, ctx.live)) {
      if (!requires.some((r) => r.kind === link.kind && r.name === link.name)) requires.push(link);
    }
  }
  const dependents = turnsOff ? liveDependents(live, ctx.live) : [];
  const result: Action = {
    ...action,
    before,
    after,
    changes: ordered,
    warnings,
    preconditions: preconditions(changes, live),
  };
  if (requires.length > 0) result.requires = requires;
  else delete result.requires;
  if (dependents.length > 0) result.required_by = dependents;
  if (Object.keys(sends).length > 0) result.sends = sends;
  else delete result.sends;
  if (guard) {
    result.guard = guard;
    result.destructive = true;
  } else result.destructive = decrypts;
  return result;
}

/**
 * Changed fields the service's version check never compares, so never sent in `original_flag`
 * (posthog/api/feature_flag.py, FeatureFlagSerializer.update and _get_conflicting_changes): the check
 * runs on the validated fields after `evaluation_contexts` was popped from them, and compares each with
 * `getattr(instance, field)`, an attribute of the flag's row, which has no `tags` (they are tagged
 * items of their own): a tags entry could only make the check read what is not there.
 */
const UNCOMPARED = new Set(["tags", "evaluation_contexts"]);

/**
 * The preconditions of an update: `version`, and `original_flag`, the values read at plan time of the
 * changed fields the service compares, as it stores them. A changed `filters` is the whole stored
 * filters, payloads of a plain flag included: PostHog's version check (products/feature_flags/backend/
 * api/feature_flag.py, FeatureFlagSerializer._get_conflicting_changes) compares each field whole,
 * `original_flag[field] != getattr(instance, field)`, and `filters` is one field, the row's JSON.
 * Anything less (the declared keys only, or no payloads) never equals the stored value, so every write
 * anyone made since the plan (a description, a tag) would refuse ours as a conflict. A flag with
 * encrypted payloads leaves them out (their live plain text is never kept, and the row holds ciphertext
 * anyway): any write since the plan is then a conflict, never silently overwritten. Apply also lays
 * the changed keys over this copy and sends the filters whole (verbs.ts, `wholeFilters`).
 */
function preconditions(changes: readonly FieldChange[], live: LiveFlag): Json {
  const original: Json = {};
  for (const c of changes) {
    const field = c.path.split(".")[0] ?? c.path;
    if (UNCOMPARED.has(field) || field in original) continue;
    if (field === "filters") {
      const stored = storedFilters(isPlainObject(live.filters) ? live.filters : {});
      if (live.has_encrypted_payloads === true) delete stored.payloads;
      original.filters = stored;
    } else original[field] = storedValue(live, field);
  }
  const out: Json = { version: live.version ?? null };
  if (Object.keys(original).length > 0) out.original_flag = original;
  return out;
}

/** A field's live value as the service stores it (the description, its `name`, as live flags keep it). */
function storedValue(live: LiveFlag, path: string): unknown {
  const field = (flagFields.fields as Record<string, { wire?: string } | undefined>)[path];
  return (live as unknown as Json)[field?.wire ?? path];
}

/** Why an action on a flag evaluated in the last 30 days needs --force; undefined otherwise. */
function liveGuard(live: LiveFlag, ctx: KindPlanContext<LiveFlags>, doing: string): string | undefined {
  if (!live.last_called_at) return undefined;
  const called = Date.parse(live.last_called_at);
  const ago = ctx.options.now.getTime() - called;
  if (!Number.isFinite(called) || ago > LIVE_DAYS * DAY) return undefined;
  return `it was evaluated ${agoText(ago)} (live in production): ${doing} affects its users`;
}

function agoText(ms: number): string {
  if (ms < 60 * 60 * 1000) return "within the last hour";
  if (ms < DAY) return `${Math.floor(ms / 3_600_000)} h ago`;
  const days = Math.floor(ms / DAY);
  return days === 1 ? "a day ago" : `${days} days ago`;
}

/**
 * What follows a flag's own actions: payloads written in plain text over encrypted live ones are plan
 * errors (compare.ts `plainOverEncrypted`), whatever else the plan holds.
 */
export function flagExtras(
  desired: DesiredFlag,
  live: LiveFlag | undefined,
  _ref: unknown,
  ctx: KindPlanContext<LiveFlags>,
): void {
  if (live === undefined) return;
  for (const message of plainOverEncrypted(desired, live)) {
    ctx.sink.errors.push({ message, source: desired.source });
  }
}
