/**
 * Dashboard sharing, as the newest service answers it (posthog/api/sharing.py and its tests,
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
 * - Every answer carries the caller's `user_access_level` on the dashboard.
 * Editing needs edit rights on the dashboard (the legacy collaborator check on restriction level 37).
 */
import { randomBytes } from "node:crypto";
import { ApiError, invalid } from "../errors.js";
import { asBody, isDict, parseBool } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { DashboardRecord, SharingRecord } from "../types.js";
import { findDashboard, privilegeLevel, requireEdit } from "./dashboard-access.js";

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

function render(ctx: Ctx, d: DashboardRecord, s: SharingRecord | undefined) {
  return {
    created_at: s?.created_at ?? null,
    enabled: s?.enabled ?? false,
    access_token: s?.access_token ?? newToken(),
    settings: s?.settings ?? null,
    password_required: s?.password_required ?? false,
    share_passwords: [],
    user_access_level: privilegeLevel(ctx, d) === 37 ? "editor" : "viewer",
  };
}

/** The dashboard's current configs (not replaced by a refresh), oldest first. */
function current(ctx: Ctx, dashboardId: number): SharingRecord[] {
  return ctx.store.data.sharing.filter((s) => s.dashboard_id === dashboardId && !s.expires_at);
}

function create(ctx: Ctx, d: DashboardRecord, token: string): SharingRecord {
  const s: SharingRecord = {
    dashboard_id: d.id,
    enabled: false,
    access_token: token,
    created_at: ctx.now.toISOString(),
    settings: null,
    password_required: false,
  };
  ctx.store.data.sharing.push(s);
  return s;
}

/** The current config, after bringing the legacy columns and the config in step. */
function reconcile(ctx: Ctx, d: DashboardRecord): SharingRecord | undefined {
  const s = current(ctx, d.id)[0];
  if (!d.share_token) return s;
  if (!s) return create(ctx, d, d.share_token);
  if (d.share_token !== s.access_token) {
    d.share_token = s.access_token;
    d.is_shared = s.enabled;
  }
  return s;
}

/** A write keeps one current config (created if need be) and drops its duplicates. */
function single(ctx: Ctx, d: DashboardRecord): { s: SharingRecord; stored: boolean } {
  const found = reconcile(ctx, d);
  const s = found ?? create(ctx, d, newToken());
  ctx.store.data.sharing = ctx.store.data.sharing.filter(
    (x) => x === s || x.dashboard_id !== d.id || x.expires_at,
  );
  return { s, stored: found !== undefined };
}

function get(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  return { status: 200, body: render(ctx, d, reconcile(ctx, d)) };
}

function patch(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  requireEdit(ctx, d);
  const body = asBody(ctx.body);
  if (body.password_required && !ctx.org.features.advanced_permissions) {
    throw new ApiError(403, { error: "Sharing with password requires the Advanced Permissions feature" });
  }
  const enabled = "enabled" in body ? parseBool(body.enabled, "enabled") : undefined;
  const settings = "settings" in body ? parseSettings(body.settings) : undefined;
  const passwordRequired =
    "password_required" in body ? parseBool(body.password_required, "password_required") : undefined;
  const { s, stored } = single(ctx, d);
  if (enabled === true && (!stored || !s.enabled)) s.access_token = newToken();
  if (enabled !== undefined && enabled !== null) s.enabled = enabled;
  if (settings !== undefined) s.settings = settings;
  if (passwordRequired !== undefined && passwordRequired !== null) s.password_required = passwordRequired;
  return { status: 200, body: render(ctx, d, s) };
}

function refresh(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  requireEdit(ctx, d);
  const { s } = single(ctx, d);
  s.access_token = newToken();
  s.created_at = ctx.now.toISOString();
  return { status: 200, body: render(ctx, d, s) };
}

export function registerSharing(router: Router): void {
  const base = "/api/projects/:project/dashboards/:dashboard/sharing";
  router.add({ method: "GET", pattern: base, scope: "sharing_configuration:read", handler: get });
  router.add({ method: "PATCH", pattern: base, scope: "sharing_configuration:write", handler: patch });
  router.add({
    method: "POST",
    pattern: `${base}/refresh`,
    scope: "sharing_configuration:write",
    handler: refresh,
  });
}
