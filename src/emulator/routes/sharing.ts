/**
 * Dashboard sharing: GET is lazy (until the first write nothing is stored and every GET shows
 * `enabled: false`, `created_at: null` and a fresh token); PATCH saves `{enabled, settings,
 * password_required}`; `POST .../refresh/` rotates the token. The dashboard's `is_shared` mirrors `enabled`.
 */
import { randomBytes } from "node:crypto";
import { ApiError, invalid } from "../errors.js";
import { asBody, isDict, parseBool } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { SharingRecord } from "../types.js";
import { findDashboard, requireEdit } from "./dashboard-view.js";

/** Known keys of the sharing settings; others are dropped like the service's settings serializer. */
const SETTINGS = [
  "whitelabel",
  "noHeader",
  "legend",
  "detailed",
  "hideExtraDetails",
  "showInspector",
  "insightsOnly",
];

/** Like Python's `secrets.token_urlsafe(22)`. */
function newToken(): string {
  return randomBytes(22).toString("base64url");
}

function render(s: SharingRecord | undefined) {
  return {
    created_at: s?.created_at ?? null,
    enabled: s?.enabled ?? false,
    access_token: s?.access_token ?? newToken(),
    settings: s?.settings ?? null,
    password_required: s?.password_required ?? false,
    share_passwords: [],
  };
}

function stored(ctx: Ctx, dashboardId: number): SharingRecord | undefined {
  return ctx.store.data.sharing.find((s) => s.dashboard_id === dashboardId);
}

function ensure(ctx: Ctx, dashboardId: number): SharingRecord {
  let s = stored(ctx, dashboardId);
  if (!s) {
    s = {
      dashboard_id: dashboardId,
      enabled: false,
      access_token: newToken(),
      created_at: ctx.now.toISOString(),
      settings: null,
      password_required: false,
    };
    ctx.store.data.sharing.push(s);
  }
  return s;
}

function get(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  return { status: 200, body: render(stored(ctx, d.id)) };
}

function patch(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  requireEdit(ctx, d);
  const body = asBody(ctx.body);
  const enabled = "enabled" in body ? parseBool(body.enabled, "enabled") : undefined;
  let settings: Record<string, unknown> | null | undefined;
  if ("settings" in body && body.settings !== null) {
    if (!isDict(body.settings)) throw invalid("Invalid settings format", "settings");
    settings = {};
    for (const key of SETTINGS) {
      const value = body.settings[key];
      if (value === undefined) continue;
      if (typeof value !== "boolean") throw invalid("Invalid settings format", "settings");
      settings[key] = value;
    }
  } else if ("settings" in body) settings = null;
  const passwordRequired =
    "password_required" in body ? parseBool(body.password_required, "password_required") : undefined;
  if (passwordRequired && !ctx.org.features.advanced_permissions) {
    throw new ApiError(403, { error: "Sharing with password requires the Advanced Permissions feature" });
  }
  const s = ensure(ctx, d.id);
  if (enabled !== undefined && enabled !== null) s.enabled = enabled;
  if (settings !== undefined) s.settings = settings;
  if (passwordRequired !== undefined && passwordRequired !== null) s.password_required = passwordRequired;
  return { status: 200, body: render(s) };
}

function refresh(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  requireEdit(ctx, d);
  const s = ensure(ctx, d.id);
  s.access_token = newToken();
  s.created_at = ctx.now.toISOString();
  return { status: 200, body: render(s) };
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
