/**
 * Dashboard and insight sharing, as the newest service answers it (posthog/api/sharing.py and its tests,
 * posthog/api/test/test_sharing.py):
 * - GET is lazy: until the first write nothing is stored, and every GET shows `enabled: false`,
 *   `created_at: null` and a fresh token. A dashboard's legacy `share_token` column is adopted as the
 *   token of a new config on read, never enabled by a read; when a current config exists the legacy
 *   columns follow it instead.
 * - PATCH saves `{enabled, settings, password_required}`; turning sharing on from off issues a new
 *   token (a re-enabled link is never the revoked one). `POST .../refresh/` rotates the token. Writes
 *   collapse duplicate current configs into one; reads leave them.
 * - `settings` keep the known keys only (booleans read as pydantic's lax mode does, `theme` a string,
 *   nulls dropped); anything else is 400 "Invalid settings format" on `settings`.
 * - Every answer carries the caller's `user_access_level` on the configuration (access.ts).
 * Reading needs access to the dashboard or insight (access control rules); editing needs edit rights on
 * it (the legacy collaborator check on a dashboard of restriction level 37, else its access level).
 * A shared insight is read with its token on the insight views (`?sharing_access_token=`, auth.ts).
 */
import { randomBytes } from "node:crypto";
import { canAccess, requireAccess, userAccessLevel } from "../access.js";
import { ApiError, forbidden, invalid, notFound } from "../errors.js";
import { asBody, isDict, parseBool } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { DashboardRecord, InsightRecord, SharingRecord } from "../types.js";
import { findDashboard, requireEdit } from "./dashboard-access.js";

/** SharingConfigurationSettings: its boolean keys, and `theme` (a string). */
const BOOLEAN_SETTINGS = [
  "whitelabel",
  "noHeader",
  "legend",
  "detailed",
  "hideExtraDetails",
  "showInspector",
  "insightsOnly",
];

const TRUE_WORDS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_WORDS = new Set(["0", "off", "f", "false", "n", "no"]);

/** Pydantic's lax boolean, or undefined when the value is not one. */
function laxBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}

function parseSettings(value: unknown): Record<string, unknown> | null {
  if (value === null) return null;
  const refuse = () => invalid("Invalid settings format", "settings");
  if (!isDict(value)) throw refuse();
  const settings: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (raw === null) continue;
    if (BOOLEAN_SETTINGS.includes(key)) {
      const flag = laxBool(raw);
      if (flag === undefined) throw refuse();
      settings[key] = flag;
    } else if (key === "theme") {
      if (typeof raw !== "string") throw refuse();
      settings[key] = raw;
    }
  }
  return settings;
}

/** Like Python's `secrets.token_urlsafe(22)`. */
function newToken(): string {
  return randomBytes(22).toString("base64url");
}

/** What is shared: a live dashboard or insight of the project. */
type Target = { kind: "dashboard"; record: DashboardRecord } | { kind: "insight"; record: InsightRecord };

function matches(t: Target, s: SharingRecord): boolean {
  return t.kind === "dashboard" ? s.dashboard_id === t.record.id : s.insight_id === t.record.id;
}

function render(ctx: Ctx, s: SharingRecord | undefined) {
  return {
    created_at: s?.created_at ?? null,
    enabled: s?.enabled ?? false,
    access_token: s?.access_token ?? newToken(),
    settings: s?.settings ?? null,
    password_required: s?.password_required ?? false,
    share_passwords: [],
    // The caller's level on the configuration itself (a resource of its own under access control).
    user_access_level: userAccessLevel(ctx, "sharing_configuration", { id: s?.access_token ?? "" }),
  };
}

/** The target's current configs (not replaced by a refresh), oldest first. */
function current(ctx: Ctx, t: Target): SharingRecord[] {
  return ctx.store.data.sharing.filter((s) => matches(t, s) && !s.expires_at);
}

function create(ctx: Ctx, t: Target, token: string): SharingRecord {
  const s: SharingRecord = {
    dashboard_id: t.kind === "dashboard" ? t.record.id : null,
    ...(t.kind === "insight" ? { insight_id: t.record.id } : {}),
    enabled: false,
    access_token: token,
    created_at: ctx.now.toISOString(),
    settings: null,
    password_required: false,
  };
  ctx.store.data.sharing.push(s);
  return s;
}

/** The current config, after bringing a dashboard's legacy columns and the config in step. */
function reconcile(ctx: Ctx, t: Target): SharingRecord | undefined {
  const s = current(ctx, t)[0];
  if (t.kind !== "dashboard") return s;
  const d = t.record;
  if (!d.share_token) return s;
  if (!s) return create(ctx, t, d.share_token);
  if (d.share_token !== s.access_token) {
    d.share_token = s.access_token;
    d.is_shared = s.enabled;
  }
  return s;
}

/** A write keeps one current config (created if need be) and drops its duplicates. */
function single(ctx: Ctx, t: Target): { s: SharingRecord; stored: boolean } {
  const found = reconcile(ctx, t);
  const s = found ?? create(ctx, t, newToken());
  ctx.store.data.sharing = ctx.store.data.sharing.filter((x) => x === s || !matches(t, x) || x.expires_at);
  return { s, stored: found !== undefined };
}

function target(ctx: Ctx): Target {
  if (ctx.params.dashboard !== undefined) {
    return { kind: "dashboard", record: findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.") };
  }
  const raw = ctx.params.insight ?? "";
  const id = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  const record = ctx.store.data.insights.find(
    (i) => i.id === id && i.team_id === ctx.project.id && !i.deleted,
  );
  if (!record) throw notFound("Insight not found.");
  return { kind: "insight", record };
}

/**
 * Reading a share token needs access to what it shares (a `viewer` rule is enough, `none` is a 403), the
 * newest service's check; the wording is the object permission's [inferred].
 */
function requireRead(ctx: Ctx, t: Target): void {
  requireAccess(ctx, t.kind, t.record, "viewer");
}

/**
 * `check_can_edit_sharing_configuration`: a dashboard on restriction level 37 keeps the legacy
 * collaborator check; otherwise the caller's access level on the dashboard or insight must be `editor`.
 */
function requireWrite(ctx: Ctx, t: Target): void {
  if (t.kind === "dashboard" && t.record.restriction_level > 21) {
    requireEdit(ctx, t.record);
    return;
  }
  if (!canAccess(ctx, t.kind, t.record, "editor")) {
    throw forbidden(`You don't have edit permissions for this ${t.kind}.`);
  }
}

function get(ctx: Ctx) {
  const t = target(ctx);
  requireRead(ctx, t);
  return { status: 200, body: render(ctx, reconcile(ctx, t)) };
}

function patch(ctx: Ctx) {
  const t = target(ctx);
  requireWrite(ctx, t);
  const body = asBody(ctx.body);
  if (body.password_required && !ctx.org.features.advanced_permissions) {
    throw new ApiError(403, { error: "Sharing with password requires the Advanced Permissions feature" });
  }
  const enabled = "enabled" in body ? parseBool(body.enabled, "enabled") : undefined;
  const settings = "settings" in body ? parseSettings(body.settings) : undefined;
  const passwordRequired =
    "password_required" in body ? parseBool(body.password_required, "password_required") : undefined;
  const { s, stored } = single(ctx, t);
  if (enabled === true && (!stored || !s.enabled)) s.access_token = newToken();
  if (enabled !== undefined && enabled !== null) s.enabled = enabled;
  if (settings !== undefined) s.settings = settings;
  if (passwordRequired !== undefined && passwordRequired !== null) s.password_required = passwordRequired;
  return { status: 200, body: render(ctx, s) };
}

function refresh(ctx: Ctx) {
  const t = target(ctx);
  requireWrite(ctx, t);
  const { s } = single(ctx, t);
  s.access_token = newToken();
  s.created_at = ctx.now.toISOString();
  return { status: 200, body: render(ctx, s) };
}

export function registerSharing(router: Router): void {
  for (const base of [
    "/api/projects/:project/dashboards/:dashboard/sharing",
    "/api/projects/:project/insights/:insight/sharing",
  ]) {
    router.add({ method: "GET", pattern: base, scope: "sharing_configuration:read", handler: get });
    router.add({ method: "PATCH", pattern: base, scope: "sharing_configuration:write", handler: patch });
    router.add({
      method: "POST",
      pattern: `${base}/refresh`,
      scope: "sharing_configuration:write",
      handler: refresh,
    });
  }
}
