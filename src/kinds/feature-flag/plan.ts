/**
 * Plans one declared flag against its live match (SPEC §3 "Feature flags"): create (and archive after
 * it), update of the declared fields that differ, soft delete of a tombstone, restore of a pinned
 * soft-deleted flag, and the archived switch. Before anything, the flags and cohorts its filters name
 * are resolved in this project (a key among the declarations, then the live flags; a cohort name among
 * the cohorts, once); what cannot be resolved is a plan error at its place.
 *
 * `filters` is compared on its declared top-level keys after both sides pass through filters.ts (every
 * server rewrite undone); a change carries the words a reviewer reads (phrasing.ts). An update's
 * `before` holds the live values it changes in the service's stored form, `version` and what the flag
 * depends on: apply sends them back as `version` + `original_flag`, so an edit made in the UI since
 * the plan is refused by the service. Its `after.filters` holds only the changed keys; apply lays them
 * over `before.filters` and sends the whole object (verbs.ts). Encrypted payload values never enter the plan: their plain text
 * is compared in memory (when its variable is set) and shows only as "changes the encrypted payload".
 *
 * A flag evaluated in the last 30 days (`last_called_at`) is live in production: turning it off,
 * soft-deleting, archiving or re-keying it is guarded (destructive, refused without --force).
 */

import { SecretValue } from "../../config/secret.js";
import { makeAction } from "../../plan/context.js";
import type { KindPlanContext } from "../../plan/kinds.js";
import { toSecretRef } from "../../plan/secrets.js";
import type { Action, FieldChange, ObjectRef } from "../../plan/types.js";
import type { Reference } from "../../read/kinds.js";
import { CREATE, RESTORE, SOFT_DELETE } from "../shared/verbs.js";
import { createProblem } from "./checks.js";
import { cohortIdsByName } from "./dependencies.js";
import { type DesiredFlag, flagFields } from "./fields.js";
import {
  differingFilterKeys,
  ENCRYPTED,
  isObject,
  type Json,
  jsonEqual,
  type NormaliseOptions,
  normaliseDesiredFilters,
  normaliseLiveFilters,
  parsePayload,
} from "./filters.js";
import { ARCHIVE, UNARCHIVE } from "./lifecycle.js";
import { keysById, type LiveFlag, type LiveFlags, liveDependents, liveReferences } from "./live.js";
import { FEATURE_FLAG } from "./name.js";
import { describeFlagField } from "./phrasing.js";
import { FLAG_UPDATE } from "./verbs.js";

const DAY = 86_400_000;
const LIVE_DAYS = 30;

/** What the service adds to `filters` on read, never stored: properties' `cohort_name` and `group_key_names`. */
const READ_ONLY_PROPERTY_KEYS = ["cohort_name", "group_key_names"];

type Ctx = KindPlanContext<LiveFlags>;

export function planFlag(desired: DesiredFlag, live: LiveFlag | undefined, ref: ObjectRef, ctx: Ctx): void {
  const owner = `feature flag "${desired.name}"`;
  if (desired.deleted) {
    if (live && !live.deleted) ctx.sink.actions.push(softDelete(live, ref, ctx));
    return;
  }
  const cohorts = resolveCohorts(desired, ctx);
  if (!resolveFlags(desired, ctx) || cohorts === undefined) return;
  if (live === undefined) {
    if (desired.id !== undefined) {
      ctx.sink.errors.push({
        message: `${owner} pins id ${desired.id}, which project ${ctx.project} does not have (live or soft-deleted): remove the \`id:\` pin to create it`,
        source: desired.source,
      });
      return;
    }
    planCreate(desired, ref, cohorts, ctx);
    return;
  }
  if (live.deleted) {
    ctx.sink.actions.push(
      makeAction(RESTORE, ref, {
        before: { deleted: true },
        after: { deleted: false },
        changes: [{ path: "deleted", before: true, after: false, says: ["restores the flag"] }],
      }),
    );
  }
  planUpdate(desired, live, ref, cohorts, ctx);
}

/** The undeclared live flag's soft delete (--prune), guarded like a tombstone's. */
export function pruneFlag(live: LiveFlag, ref: ObjectRef, ctx: Ctx): Action {
  return softDelete(live, ref, ctx);
}

function softDelete(live: LiveFlag, ref: ObjectRef, ctx: Ctx): Action {
  const guard = liveGuard(live, ctx, "soft-deleting it");
  return makeAction(SOFT_DELETE, ref, {
    before: {
      ...flagFields.state(live as never),
      depends_on: liveReferences(live, keysById(ctx.live)),
      dependents: liveDependents(live, ctx.live),
    },
    ...(guard ? { guard } : {}),
  });
}

/** Why an action on a flag evaluated in the last 30 days needs --force; undefined otherwise. */
function liveGuard(live: LiveFlag, ctx: Ctx, doing: string): string | undefined {
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
 * What a declared flag refers to in a change-scoped read (SPEC §3): the flags its conditions name, by
 * key (the read finds a declared one the way it is declared, else the live flag by key). The cohorts it
 * names are no kind: the read hook reads them, once, when a declaration it reads names one.
 */
export function flagReferencesOf(desired: DesiredFlag): Reference[] {
  if (desired.deleted) return [];
  return [...new Set(desired.references.map((r) => r.key))].map((name) => ({ kind: FEATURE_FLAG, name }));
}

/**
 * Every flag the filters name is declared in this project or live in it; else a plan error at its
 * place. A change-scoped plan creates only the change's flags (`ctx.live.declared`): a dependency
 * declared elsewhere but not live is an error there too, saying why.
 */
function resolveFlags(desired: DesiredFlag, ctx: Ctx): boolean {
  const live = new Set([...ctx.live.objects, ...ctx.live.others].filter((f) => !f.deleted).map((f) => f.key));
  const declared = new Set(ctx.live.declared);
  const elsewhere = new Set((ctx.others?.declared(FEATURE_FLAG) ?? []).map((d) => d.name));
  let ok = true;
  for (const ref of desired.references) {
    if (live.has(ref.key) || declared.has(ref.key)) continue;
    ok = false;
    ctx.sink.errors.push({
      message:
        ctx.live.scoped !== undefined && elsewhere.has(ref.key)
          ? `feature flag "${desired.name}" depends on flag "${ref.key}", which is declared but not live in project ${ctx.project}, and a change-scoped plan leaves its unchanged declaration as it is: a full plan creates it`
          : `feature flag "${desired.name}" depends on flag "${ref.key}", which is neither declared nor a live flag of project ${ctx.project}`,
      source: ref.source,
    });
  }
  return ok;
}

/** Cohort names → ids in this project (one name, one cohort); undefined after reporting a problem. */
function resolveCohorts(desired: DesiredFlag, ctx: Ctx): Map<string, number> | undefined {
  const byName = cohortIdsByName(ctx.live.cohorts ?? []);
  const out = new Map<string, number>();
  let ok = true;
  for (const { name, source } of desired.cohorts) {
    const ids = byName.get(name) ?? [];
    if (ids.length === 1 && ids[0] !== undefined) out.set(name, ids[0]);
    else {
      ok = false;
      ctx.sink.errors.push({
        message:
          ids.length === 0
            ? `feature flag "${desired.name}" names cohort "${name}", which project ${ctx.project} does not have`
            : `cohort name "${name}" is held by cohorts ${ids.join(", ")} of project ${ctx.project}: name it by id instead (value: <id>)`,
        source,
      });
    }
  }
  return ok ? out : undefined;
}

/** The declared filters in the plan's form: cohorts by id (and name, for reading), secrets as references. */
function planFilters(desired: DesiredFlag, cohorts: ReadonlyMap<string, number>): Json | undefined {
  if (desired.filters === undefined) return undefined;
  const out = structuredClone({ ...desired.filters, payloads: undefined }) as Json;
  if (!("payloads" in desired.filters)) delete out.payloads;
  else {
    const payloads = desired.filters.payloads;
    out.payloads = isObject(payloads)
      ? Object.fromEntries(
          Object.entries(payloads).map(([k, v]) => [k, v instanceof SecretValue ? toSecretRef(v) : v]),
        )
      : payloads;
  }
  for (const group of Array.isArray(out.groups) ? out.groups.filter(isObject) : []) {
    for (const prop of Array.isArray(group.properties) ? group.properties.filter(isObject) : []) {
      if (prop.type === "cohort" && typeof prop.cohort === "string") prop.value = cohorts.get(prop.cohort);
    }
  }
  return out;
}

function normaliseOptions(desired: DesiredFlag, live: LiveFlag | undefined, ctx: Ctx): NormaliseOptions {
  const remote = desired.is_remote_configuration ?? live?.is_remote_configuration === true;
  // Encrypted on either side: a live payload is never compared or shown, whatever the file says.
  const encrypted = desired.has_encrypted_payloads === true || live?.has_encrypted_payloads === true;
  const stored = live && isObject(live.filters) ? live.filters.aggregation_group_type_index : null;
  return {
    remoteConfiguration: remote,
    encrypted,
    storedAggregation: typeof stored === "number" ? stored : null,
    flagKeyOf: keysById(ctx.live),
  };
}

/** A cohort's name by id, from the cohorts read or the names the live flag carries. */
function cohortNames(live: LiveFlag | undefined, ctx: Ctx): (id: number) => string | undefined {
  const names = new Map((ctx.live.cohorts ?? []).map((c) => [c.id, c.name]));
  const groups =
    live && isObject(live.filters) && Array.isArray(live.filters.groups) ? live.filters.groups : [];
  for (const group of groups.filter(isObject)) {
    for (const prop of Array.isArray(group.properties) ? group.properties.filter(isObject) : []) {
      if (prop.type === "cohort" && typeof prop.cohort_name === "string")
        names.set(Number(prop.value), prop.cohort_name);
    }
  }
  return (id) => names.get(id);
}

/** A field's live value as the service stores it (the description, its `name`, as live flags keep it). */
function storedValue(live: LiveFlag, path: string): unknown {
  const field = (flagFields.fields as Record<string, { wire?: string } | undefined>)[path];
  return (live as unknown as Json)[field?.wire ?? path];
}

/** The live filters as the service stores them: what it adds on read removed. */
function storedFilters(live: LiveFlag): Json {
  const filters = structuredClone(isObject(live.filters) ? live.filters : {}) as Json;
  for (const group of Array.isArray(filters.groups) ? filters.groups.filter(isObject) : []) {
    for (const prop of Array.isArray(group.properties) ? group.properties.filter(isObject) : []) {
      for (const key of READ_ONLY_PROPERTY_KEYS) delete prop[key];
    }
  }
  return filters;
}

/**
 * The changes of a flag's payloads when either side is encrypted, one per payload key: compared in
 * memory with the live plain text (never kept), added, removed, or sent again under --rotate-secrets.
 * A variable not set leaves its value unknown: treated as unchanged. When encryption is switched on or
 * off every declared payload is written again (the service encrypts only the payloads a write sends),
 * and a payload the file writes in plain text is never compared with an encrypted live one (the plan
 * would tell whether a guess was right). A change carries the variable or the file's value, never a
 * live one.
 */
function encryptedPayloadChanges(
  desired: DesiredFlag,
  live: LiveFlag,
  plan: Json,
  rotate: boolean,
): FieldChange[] {
  const wanted = isObject(desired.filters?.payloads) ? desired.filters.payloads : {};
  const current = isObject(live.filters) && isObject(live.filters.payloads) ? live.filters.payloads : {};
  const refs = isObject(plan.payloads) ? plan.payloads : {};
  const liveEncrypted = live.has_encrypted_payloads === true;
  const encrypted = desired.has_encrypted_payloads ?? liveEncrypted;
  const switching = encrypted !== liveEncrypted;
  const changes: FieldChange[] = [];
  for (const key of Object.keys(wanted)) {
    const value = wanted[key];
    const path = `filters.payloads.${key}`;
    if (!(key in current)) {
      const says = [`adds the ${encrypted ? "encrypted " : ""}payload for ${key}`];
      changes.push({ path, after: refs[key], ...(encrypted ? { secret: true } : {}), says });
      continue;
    }
    const differs =
      value instanceof SecretValue &&
      value.available &&
      !jsonEqual(parsePayload(value.reveal()), parsePayload(current[key]));
    if (!(switching || rotate || differs)) continue;
    const says = [`changes the encrypted payload for ${key}`];
    changes.push(
      encrypted
        ? { path, after: refs[key], secret: true, says }
        : { path, before: ENCRYPTED, after: refs[key], says },
    );
  }
  for (const key of Object.keys(current)) {
    if (!(key in wanted)) {
      changes.push({
        path: `filters.payloads.${key}`,
        before: ENCRYPTED,
        after: null,
        says: [`removes the encrypted payload for ${key}`],
      });
    }
  }
  return changes;
}

/**
 * Payloads the file writes in plain text for a flag whose live payloads are encrypted, without saying
 * `has_encrypted_payloads`: plan errors, one per payload. Compared, they would tell a reader of the
 * plan whether the file guessed the live secret; written, they would replace it unseen.
 */
function plainOverEncrypted(desired: DesiredFlag, live: LiveFlag): string[] {
  if (live.has_encrypted_payloads !== true || desired.has_encrypted_payloads !== undefined) return [];
  const payloads = desired.filters?.payloads;
  if (!isObject(payloads)) return [];
  return Object.keys(payloads).map(
    (key) =>
      `payload ${JSON.stringify(key)} of feature flag "${desired.name}" is written in plain text, but its live payloads are encrypted: declare has_encrypted_payloads: true and write it as one \${NAME} reference (a secret), or has_encrypted_payloads: false to store it in plain text from now on`,
  );
}

/** Field changes of `filters`, on the keys the file declares, in comparable forms with a reviewer's words. */
function filterChanges(desired: DesiredFlag, live: LiveFlag, plan: Json, ctx: Ctx): FieldChange[] {
  const declared = Object.keys(plan);
  const opts = normaliseOptions(desired, live, ctx);
  const { flagKeyOf: _ids, ...desiredOpts } = opts;
  const wanted = normaliseDesiredFilters(plan, desiredOpts);
  const current = normaliseLiveFilters(isObject(live.filters) ? live.filters : {}, opts);
  const encrypted = opts.encrypted && declared.includes("payloads");
  const keys = differingFilterKeys(declared, wanted, current).filter((k) => !(encrypted && k === "payloads"));
  const names = cohortNames(live, ctx);
  const changes = keys.map((key) => {
    const path = `filters.${key}`;
    const before = current[key] ?? null;
    const after = wanted[key] ?? null;
    const says = describeFlagField(path, before, after, { cohortName: names });
    const change: FieldChange = { path, before, after };
    if (says.length > 0) change.says = says;
    return change;
  });
  if (encrypted) changes.push(...encryptedPayloadChanges(desired, live, plan, ctx.options.rotateSecrets));
  return changes;
}

function planCreate(
  desired: DesiredFlag,
  ref: ObjectRef,
  cohorts: ReadonlyMap<string, number>,
  ctx: Ctx,
): void {
  const problem = createProblem(desired.filters, `feature flag "${desired.name}"`);
  if (problem !== undefined) {
    ctx.sink.errors.push({ message: problem, source: desired.source });
    return;
  }
  const after: Json = flagFields.sent(desired as never);
  const filters = planFilters(desired, cohorts);
  if (filters !== undefined) after.filters = filters;
  const names = cohortNames(undefined, ctx);
  const changes: FieldChange[] = [];
  for (const [path, value] of Object.entries(after)) {
    if (path !== "filters") {
      changes.push({ path, after: value });
      continue;
    }
    // Filters key by key, in a reviewer's words; an encrypted payload by its variable only.
    for (const [key, part] of Object.entries(value as Json)) {
      if (key === "payloads" && desired.has_encrypted_payloads === true && isObject(part)) {
        for (const [payload, ref] of Object.entries(part)) {
          const says = [`adds the encrypted payload for ${payload}`];
          changes.push({ path: `filters.payloads.${payload}`, after: ref, secret: true, says });
        }
        continue;
      }
      const says = describeFlagField(`filters.${key}`, undefined, part, { cohortName: names });
      changes.push({ path: `filters.${key}`, after: part, ...(says.length > 0 ? { says } : {}) });
    }
  }
  ctx.sink.actions.push(makeAction(CREATE, ref, { after, changes }));
  if (desired.archived === true) {
    ctx.sink.actions.push(
      makeAction(ARCHIVE, ref, { before: { archived: false }, after: { archived: true } }),
    );
  }
}

function planUpdate(
  desired: DesiredFlag,
  live: LiveFlag,
  ref: ObjectRef,
  cohorts: ReadonlyMap<string, number>,
  ctx: Ctx,
): void {
  const plain = plainOverEncrypted(desired, live);
  if (plain.length > 0) {
    for (const message of plain) ctx.sink.errors.push({ message, source: desired.source });
    return;
  }
  const state = flagFields.state(live as never);
  const { changes } = flagFields.compare(desired as never, state);
  const filters = planFilters(desired, cohorts);
  const filterChangeList = filters === undefined ? [] : filterChanges(desired, live, filters, ctx);
  for (const change of changes) {
    const says = describeFlagField(change.path, change.before, change.after);
    if (says.length > 0) change.says = says;
  }
  const all = [...changes, ...filterChangeList];
  const unarchive = desired.archived === false && live.archived === true;
  if (unarchive)
    ctx.sink.actions.push(
      makeAction(UNARCHIVE, ref, { before: { archived: true }, after: { archived: false } }),
    );
  if (all.length > 0) {
    const before: Json = {
      version: live.version ?? null,
      depends_on: liveReferences(live, keysById(ctx.live)),
    };
    const after: Json = {};
    for (const c of changes) {
      before[c.path] = storedValue(live, c.path);
      after[c.path] = c.after;
    }
    if (filterChangeList.length > 0 && filters !== undefined) {
      // The whole stored filters, payloads of a plain flag included: PostHog's version check
      // (products/feature_flags/backend/api/feature_flag.py, FeatureFlagSerializer.
      // _get_conflicting_changes) compares each field whole, `original_flag[field] !=
      // getattr(instance, field)`, and `filters` is one field, the row's JSON. Anything less (the
      // declared keys only, or no payloads) never equals the stored value, so every write anyone made
      // since the plan (a description, a tag) would refuse ours as a conflict. A flag with encrypted
      // payloads leaves them out (their live plain text is never kept, and the row holds ciphertext
      // anyway): any write since the plan is then a conflict, never silently overwritten.
      // Apply also sends this copy as the base of the filters it writes (verbs.ts, `wholeFilters`):
      // `after` holds only the keys that change, as the plan shows them.
      before.filters = storedFilters(live);
      if (live.has_encrypted_payloads === true) delete (before.filters as Json).payloads;
      const keys = new Set(filterChangeList.map((c) => c.path.split(".")[1] ?? ""));
      after.filters = Object.fromEntries([...keys].map((k) => [k, filters[k]]));
    }
    const turnsOff = changes.some((c) => c.path === "active" && c.after === false);
    // Turned off after the flags that depend on it (apply order: order.ts).
    if (turnsOff) before.dependents = liveDependents(live, ctx.live);
    const rekeys = changes.some((c) => c.path === "key");
    const guard =
      (turnsOff ? liveGuard(live, ctx, "turning it off") : undefined) ??
      (rekeys
        ? liveGuard(live, ctx, `renaming its key, code that checks "${live.key}" no longer finds it`)
        : undefined);
    const warnings: string[] = [];
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
    ctx.sink.actions.push(
      makeAction(FLAG_UPDATE, ref, {
        before,
        after,
        changes: all,
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(decrypts ? { destructive: true } : {}),
        ...(guard ? { guard } : {}),
      }),
    );
  }
  if (desired.archived === true && live.archived !== true) {
    const guard = liveGuard(live, ctx, "archiving it");
    ctx.sink.actions.push(
      makeAction(ARCHIVE, ref, {
        before: { archived: false, dependents: liveDependents(live, ctx.live) },
        after: { archived: true },
        ...(guard ? { guard } : {}),
      }),
    );
  }
}
