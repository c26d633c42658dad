/**
 * Plans one declared batch export against its live match: create, update (secrets only on rotation or
 * when the destination otherwise changes), pause / unpause, delete of tombstones, and the replacement
 * (create + delete) that a destination type or model change needs, only with --force. `paused` is
 * reconciled by the pause / unpause endpoints, never in a body after create.
 *
 * The newest service's rules that need live state are checked here (service-api.md §0, §4): each named
 * integration exists in the project and fits the type (integrations.ts); a create names an integration
 * where the service requires one (a legacy inline form is a warning: only older services take it) and
 * carries the config keys it requires; an HTTP URL outside the allow-list is refused where the
 * destination is written; a declared legacy S3 export that the service migrated to AwsS3 /
 * S3Compatible is compared as that export. Every destination write carries `type`, a `config` object
 * and the integration (the newest service answers 500 without the first two and drops some types'
 * integration when it is left out); schedule offsets go with their interval; unpause asks for a
 * backfill only when the service knows when the export was paused.
 */
import { type KindPlanContext, makeAction } from "../../plan/index.js";
import { toSecretRef } from "../../plan/secrets.js";
import type { Action, FieldChange, ObjectRef } from "../../plan/types.js";
import { getPath, isPlainObject, setPath } from "../../plan/values.js";
import { humanTime } from "../../render/time.js";
import { looseEqual } from "../shared/normalise.js";
import type { BatchExport } from "./answers.js";
import { batchExportFields, type DesiredBatchExport } from "./fields.js";
import { integrationErrors, resolveIntegration } from "./integrations.js";
import type { LiveBatchExports } from "./live.js";
import { gapBackfillCommand } from "./operations/backfill-command.js";
import {
  CREATE_NEEDS_INTEGRATION,
  HTTP_URLS,
  INTEGRATION_KIND,
  isCredentialPath,
  isSecretPath,
  LEGACY_INLINE_TYPES,
  MOVED_TO_INTEGRATION,
  REQUIRED_ON_CREATE,
} from "./service-rules/destinations.js";
import { integrationForm, isMigratedS3, legacyCreateWarning, withArticle } from "./service-rules/legacy.js";
import { configKeys } from "./service-rules/schema.js";
import { CREATE, DELETE, PAUSE, UNPAUSE, UPDATE } from "./verbs.js";

/** The comparable state of a live batch export, as the field table (fields.ts) gives it. */
export interface BatchExportState extends Record<string, unknown> {
  id: string;
  name: string;
  model: string;
  interval: string;
  paused: boolean;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string;
  filters: unknown[];
  /** Newest services only (absent from older answers). */
  timezone?: string;
  offset_day?: number | null;
  offset_hour?: number | null;
  primary_key?: string[] | null;
  version_key?: string[] | null;
  incremental_mode?: string | null;
  destination: { type: string; config: Record<string, unknown>; integration: number | null };
}

export function batchExportState(live: BatchExport): BatchExportState {
  return batchExportFields.state(live) as BatchExportState;
}

const CONFIG_PREFIX = "destination.config.";
const SCHEDULE_FIELDS = new Set(["interval", "offset_day", "offset_hour"]);
/** Types whose integration holds the credentials: inline ones are unknown fields next to it. */
const CREDENTIALS_IN_INTEGRATION = new Set(["S3", "AwsS3", "S3Compatible", "Snowflake"]);

export function planBatchExport(
  desired: DesiredBatchExport,
  current: BatchExport | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext<LiveBatchExports>,
): void {
  if (desired.deleted) {
    if (current) ctx.sink.actions.push(deleteAction(ref, batchExportState(current)));
    return;
  }
  const named = resolveIntegration(desired, ctx.project, ctx.live.integrations);
  if ("error" in named) {
    ctx.sink.errors.push(named.error);
    return;
  }
  desired = named.desired;
  const bad = integrationErrors(desired, ctx.project, ctx.live.integrations);
  if (bad.length > 0) {
    ctx.sink.errors.push(...bad);
    return;
  }
  if (current) planExisting(desired, current, ref, ctx);
  else if (desired.id !== undefined) {
    ctx.sink.errors.push({
      message: `batch export "${ref.name}": the pinned id ${desired.id} is not live (a deleted batch export cannot be restored); remove the \`id\` to create a new one, or add \`deleted: true\``,
      source: desired.source,
    });
  } else planCreate(desired, ref, ctx, []);
}

function deleteAction(ref: ObjectRef, state: BatchExportState): Action {
  return makeAction(DELETE, ref, { before: { ...state } });
}

/** What the comparison leaves out, and why (notes for the reviewer). */
interface Compared {
  changes: FieldChange[];
  /** Declared fields the live answer does not carry (an older service): not compared. */
  unreported: string[];
  /** Declared config keys the service keeps in the integration now: not compared. */
  inIntegration: string[];
}

/**
 * Changes for the declared fields that differ from the live state: the field table's, then the
 * destination's (its type, its integration, the declared non-secret config keys); secrets are never
 * compared.
 */
export function compareBatchExport(desired: DesiredBatchExport, live: BatchExportState): Compared {
  const compared = batchExportFields.compare(desired, live);
  const out: Compared = { ...compared, inIntegration: [] };
  const scalar = (path: string, after: unknown, before: unknown, equal: boolean) => {
    if (after !== undefined && !equal) out.changes.push(change(path, before, after));
  };
  const destination = desired.destination;
  if (destination) {
    const type = destination.type;
    const liveType = live.destination.type;
    const migrated = isMigratedS3(type, liveType);
    if (!migrated) scalar("destination.type", type, liveType, type === liveType);
    const integration = destination.integration;
    const liveIntegration = live.destination.integration;
    scalar("destination.integration", integration, liveIntegration, integration === liveIntegration);
    const moved = new Set(liveIntegration === null ? [] : (MOVED_TO_INTEGRATION[type] ?? []));
    const accepted = migrated ? configKeys(liveType) : undefined;
    for (const path of leafPaths(destination.config)) {
      if (isSecretPath(type, path)) continue;
      const key = path.split(".")[0] as string;
      if (moved.has(key) || (accepted !== undefined && !accepted.has(key))) {
        out.inIntegration.push(path);
        continue;
      }
      const after = getPath(destination.config, path);
      const before = getPath(live.destination.config, path);
      scalar(`${CONFIG_PREFIX}${path}`, after, before, looseEqual(after, before));
    }
  }
  return out;
}

/** Leaf paths of a declared config: nested objects are walked, arrays and scalars are leaves. */
function leafPaths(config: Record<string, unknown>, prefix = ""): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (isPlainObject(value) && Object.keys(value).length > 0) paths.push(...leafPaths(value, path));
    else paths.push(path);
  }
  return paths;
}

function change(path: string, before: unknown, after: unknown): FieldChange {
  const c: FieldChange = { path, after };
  if (before !== undefined) c.before = before;
  return c;
}

/**
 * The secrets of a desired export as write-only changes (no `before`). `integration`: the credentials
 * live in an integration, so the inline credentials an integration replaces are left out (the service
 * would refuse them as unknown fields).
 */
export function secretChanges(desired: DesiredBatchExport, integration = false): FieldChange[] {
  const type = desired.destination?.type ?? "";
  const secrets = desired.destination?.secrets ?? {};
  return Object.keys(secrets)
    .filter((path) => !(integration && CREDENTIALS_IN_INTEGRATION.has(type) && isCredentialPath(path)))
    .sort()
    .map((path) => ({
      path: `${CONFIG_PREFIX}${path}`,
      after: toSecretRef(secrets[path] as NonNullable<(typeof secrets)[string]>),
      secret: true,
    }));
}

/** The full create body: every declared field as the file gives it, the destination with `SecretRef`s. */
export function createSide(desired: DesiredBatchExport): Record<string, unknown> {
  const { destination: _, ...body } = batchExportFields.declared(desired);
  if (desired.destination) {
    const config = structuredClone(desired.destination.config);
    for (const secret of secretChanges(desired)) {
      setPath(config, secret.path.slice(CONFIG_PREFIX.length), secret.after);
    }
    const destination: Record<string, unknown> = { type: desired.destination.type, config };
    if (desired.destination.integration !== undefined) {
      destination.integration_id = desired.destination.integration;
    }
    body.destination = destination;
  }
  return body;
}

/**
 * The sides of an update: `before` / `after` the changed fields (live and declared values), nested as
 * the PATCH body nests them; `sends` what the PATCH carries besides: the secrets (write-only: sent
 * again, never compared) and the companions the service needs: a destination always carries its
 * `type`, a `config` object and its integration as `integration_id` (the declared one, else the live
 * one: some types drop it when a destination write leaves it out); changed schedule offsets carry
 * their `interval`, and a weekly export both offsets (the service resets the one left out). The body
 * is `after` with `sends` laid over it (verbs.ts `updateBody`).
 */
export function updateSides(
  changes: FieldChange[],
  desired: DesiredBatchExport,
  live: BatchExportState,
  type: string,
) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const sends: Record<string, unknown> = {};
  for (const c of changes) {
    if (c.secret) {
      setPath(sends, c.path, c.after);
      continue;
    }
    setPath(before, c.path, c.before ?? null);
    setPath(after, c.path, c.after);
  }
  if (changes.some((c) => c.path.startsWith("destination."))) {
    const integration = desired.destination?.integration ?? live.destination.integration ?? undefined;
    const config = isPlainObject(sends.destination) ? sends.destination.config : undefined;
    sends.destination = {
      type,
      config: isPlainObject(config) ? config : {},
      ...(integration === undefined ? {} : { integration_id: integration }),
    };
  }
  if (changes.some((c) => SCHEDULE_FIELDS.has(c.path))) {
    const interval = desired.interval ?? live.interval;
    if (!("interval" in after)) sends.interval = interval;
    if (interval === "week" && (desired.offset_day !== undefined || desired.offset_hour !== undefined)) {
      if (!("offset_day" in after)) sends.offset_day = desired.offset_day ?? live.offset_day ?? 0;
      if (!("offset_hour" in after)) sends.offset_hour = desired.offset_hour ?? live.offset_hour ?? 0;
    } else if (interval === "day" && desired.offset_hour !== undefined && !("offset_hour" in after)) {
      sends.offset_hour = desired.offset_hour;
    }
  }
  return { before, after, sends };
}

function planCreate(desired: DesiredBatchExport, ref: ObjectRef, ctx: KindPlanContext, warnings: string[]) {
  const { sink } = ctx;
  const destination = desired.destination;
  if (!destination) {
    sink.errors.push({
      message: `batch export "${ref.name}": a destination is needed to create it`,
      source: desired.source,
    });
    return;
  }
  const problems = createProblems(desired);
  if (problems.length > 0) {
    for (const message of problems)
      sink.errors.push({ message: `batch export "${ref.name}": ${message}`, source: desired.source });
    return;
  }
  const legacy = legacyCreateWarning(desired.destination);
  if (legacy !== undefined && LEGACY_INLINE_TYPES.has(destination.type)) warnings.push(legacy);
  if (desired.hogql_query !== undefined && (desired.model ?? "events") !== "hogql") {
    warnings.push(
      "the newest service takes hogql_query only with model: hogql (or in a project that already has events exports with a query)",
    );
  }
  const after = createSide(desired);
  const changes: FieldChange[] = Object.entries(after)
    .filter(([path]) => path !== "destination")
    .map(([path, value]) => ({ path, after: value }));
  changes.push({ path: "destination.type", after: destination.type });
  if (destination.integration !== undefined) {
    changes.push({ path: "destination.integration", after: destination.integration });
  }
  for (const [key, value] of Object.entries(destination.config)) {
    changes.push({ path: `${CONFIG_PREFIX}${key}`, after: value });
  }
  changes.push(...secretChanges(desired));
  const createRef: ObjectRef = { ...ref };
  delete createRef.id;
  sink.actions.push(makeAction(CREATE, createRef, { after, changes, warnings }));
}

/** What the newest service would refuse in this create, knowable before sending it. */
function createProblems(desired: DesiredBatchExport): string[] {
  const destination = desired.destination;
  if (!destination) return [];
  const { type, config, secrets } = destination;
  const problems: string[] = [];
  if (destination.integration === undefined && CREATE_NEEDS_INTEGRATION.has(type)) {
    problems.push(
      `the service creates a ${type} export only with an integration: create ${withArticle(INTEGRATION_KIND[type] ?? "")} integration in PostHog and declare ${integrationForm(destination)}`,
    );
  }
  const missing = (REQUIRED_ON_CREATE[type] ?? []).filter((key) => !(key in config) && !(key in secrets));
  if (missing.length > 0) {
    problems.push(
      `creating a ${type} export needs destination.config.${missing.join(", destination.config.")}`,
    );
  }
  problems.push(...httpUrlProblems(desired));
  if (config.legacy_parquet_extension === true) {
    problems.push(
      "legacy_parquet_extension: true is refused on a new export (it only stays on for exports that already write the codec into their Parquet file names)",
    );
  }
  if (desired.model === "hogql" && desired.hogql_query === undefined) {
    problems.push("model: hogql needs a hogql_query");
  }
  return problems;
}

function httpUrlProblems(desired: DesiredBatchExport): string[] {
  const destination = desired.destination;
  const url = destination?.config.url;
  if (destination?.type !== "HTTP" || typeof url !== "string" || HTTP_URLS.includes(url)) return [];
  return [`the service accepts only ${HTTP_URLS.join(" or ")} as an HTTP destination's URL, not ${url}`];
}

/** Rules that need the live export: fields declared without the interval / model they depend on. */
function liveRuleProblems(desired: DesiredBatchExport, state: BatchExportState): string[] {
  const problems: string[] = [];
  const interval = desired.interval ?? state.interval;
  if (desired.offset_day !== undefined && interval !== "week") {
    problems.push(`offset_day applies to weekly exports only (its interval is ${interval})`);
  }
  if (desired.offset_hour !== undefined && interval !== "day" && interval !== "week") {
    problems.push(`offset_hour applies to daily and weekly exports only (its interval is ${interval})`);
  }
  const model = desired.model ?? state.model;
  if ((desired.filters?.length ?? 0) > 0 && model !== "events") {
    problems.push(`filters need model: events (its model is ${model})`);
  }
  for (const key of ["primary_key", "version_key", "incremental_mode"] as const) {
    if (desired[key] !== undefined && model !== "hogql") {
      problems.push(`${key} needs model: hogql (its model is ${model})`);
    }
  }
  return problems;
}

function planExisting(
  desired: DesiredBatchExport,
  current: BatchExport,
  ref: ObjectRef,
  ctx: KindPlanContext,
) {
  const { options, sink } = ctx;
  const state = batchExportState(current);
  const fail = (message: string) =>
    sink.errors.push({ message: `batch export "${ref.name}": ${message}`, source: desired.source });
  const problems = liveRuleProblems(desired, state);
  if (problems.length > 0) {
    problems.forEach(fail);
    return;
  }
  const { changes, unreported, inIntegration } = compareBatchExport(desired, state);
  const refused = changes.filter((c) => c.path === "destination.type" || c.path === "model");
  if (refused.length > 0) {
    const what = refused.map((c) => `${c.path} from ${String(c.before)} to ${String(c.after)}`).join(" and ");
    if (desired.destination?.type === "S3" && refused.some((c) => c.path === "destination.type")) {
      fail(
        `the service cannot change ${what}, and the newest one refuses new S3 exports: declare the integration form instead, ${integrationForm(desired.destination)}`,
      );
      return;
    }
    if (!options.force) {
      fail(
        `the service cannot change ${what}; rerun with --force to delete the export and create a new one (its run history is lost)`,
      );
      return;
    }
    const warning = `replaces export ${current.id} (${what}): the new export is created, then the old one deleted; run history stays with the old one`;
    planCreate(desired, ref, ctx, [warning]);
    sink.actions.push(deleteAction(ref, state));
    return;
  }
  noteLegacy(desired, state, ref, ctx, unreported, inIntegration);
  const destinationChanging = changes.some((c) => c.path.startsWith("destination."));
  const liveType = state.destination.type;
  const migrated = isMigratedS3(desired.destination?.type, liveType);
  if (options.rotateSecrets || destinationChanging) {
    const integration = state.destination.integration !== null || migrated;
    changes.push(...secretChanges(desired, integration));
    const url = httpUrlProblems(desired);
    if (url.length > 0) {
      url.forEach(fail);
      return;
    }
  }
  if (changes.length > 0) {
    const warnings: string[] = [];
    const interval = changes.find((c) => c.path === "interval");
    if (interval) {
      warnings.push(
        `the interval changes from ${String(interval.before)} to ${String(interval.after)}: the schedule and the size of each exported batch change`,
      );
    }
    const type = migrated ? liveType : (desired.destination?.type ?? liveType);
    const { before, after, sends } = updateSides(changes, desired, state, type);
    sink.actions.push(makeAction(UPDATE, ref, { before, after, changes, warnings, sends }));
  }
  planPause(desired, current, ref, ctx);
}

/** Notes for what the comparison left out: fields an older service ignores, keys now in the integration. */
function noteLegacy(
  desired: DesiredBatchExport,
  state: BatchExportState,
  ref: ObjectRef,
  ctx: KindPlanContext,
  unreported: string[],
  inIntegration: string[],
) {
  const { sink } = ctx;
  if (unreported.length > 0) {
    sink.notes.push({
      severity: "note",
      message: `the service does not report ${unreported.join(", ")} (an older service, which ignores them): not compared`,
      object: ref,
    });
  }
  const destination = desired.destination;
  if (!destination) return;
  const live = state.destination;
  if (isMigratedS3(destination.type, live.type)) {
    const skipped = inIntegration.length > 0 ? ` (${inIntegration.join(", ")} are not compared)` : "";
    sink.notes.push({
      severity: "warning",
      message: `declared as a legacy S3 export with inline keys, but the service migrated it to ${live.type} with integration ${live.integration}, which holds its credentials now${skipped}; declare ${integrationForm(destination, live.integration ?? undefined)}`,
      object: ref,
    });
  } else if (inIntegration.length > 0) {
    sink.notes.push({
      severity: "warning",
      message: `destination.config.${inIntegration.join(", destination.config.")} now live in integration ${live.integration}: not compared; remove them from the file`,
      object: ref,
    });
  }
}

function planPause(desired: DesiredBatchExport, current: BatchExport, ref: ObjectRef, ctx: KindPlanContext) {
  const { options, sink } = ctx;
  if (desired.paused === undefined || desired.paused === current.paused) return;
  if (desired.paused) {
    sink.actions.push(makeAction(PAUSE, ref, { before: { paused: false }, after: { paused: true } }));
    return;
  }
  const since = current.last_paused_at;
  const sends: Record<string, unknown> = {};
  const warnings: string[] = [];
  const gap = (from: string) =>
    gapBackfillCommand(desired.name, current.interval, from, options.now, current.offset_day ?? 0);
  if (desired.backfill_on_unpause && since) {
    sends.backfill = true;
    sink.notes.push({
      severity: "note",
      message: `the paused gap since ${humanTime(since, options.now)} will be backfilled on unpause`,
      object: ref,
    });
  } else if (desired.backfill_on_unpause) {
    // Without last_paused_at the service's unpause backfill starts at the earliest data there is,
    // not at the export's start (service-api.md §4 "Pause / unpause"): never ask for that.
    const from = current.start_at ?? current.created_at;
    const command = from ? gap(from) : undefined;
    warnings.push(
      `the service does not know when this export was paused (it was created or set paused without the pause endpoint), and an unpause backfill would then export everything from the beginning of the data: no backfill is requested. ${command ? `To export what it missed, run: ${command}` : "It has missed no whole interval."}`,
    );
  } else if (since) {
    // The exact command, in the window form `backfill` accepts for this interval (dates for daily and
    // weekly exports); none when the pause missed no whole interval.
    const command = gap(since);
    if (command) {
      warnings.push(
        `the paused gap since ${humanTime(since, options.now)} will not be exported; to export it, run: ${command}`,
      );
    }
  }
  sink.actions.push(
    makeAction(UNPAUSE, ref, { before: { paused: true }, after: { paused: false }, warnings, sends }),
  );
}
