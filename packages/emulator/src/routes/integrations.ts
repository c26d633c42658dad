/**
 * A project's Integrations (service-api.md §4 "Integrations"): `GET .../integrations/` (limit/offset
 * pages, oldest first, optional `?kind=`) and `GET .../integrations/{id}/`, scope `integration:read`.
 * The non-secret `config` only; `sensitive_config` is never returned. Batch export writes resolve
 * `destination.integration(_id)` through `resolveIntegration`, scoped to the project like the service's
 * TeamScopedPrimaryKeyRelatedField.
 */
import { invalid, notFound } from "../errors.js";
import { pyType } from "../fields.js";
import { offsetPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import type { IntegrationRecord } from "../types.js";
import { userBasic } from "./dashboard-access.js";

export function renderIntegration(ctx: Ctx, i: IntegrationRecord) {
  const creator = ctx.store.user(i.created_by);
  return {
    id: i.id,
    kind: i.kind,
    config: structuredClone(i.config),
    created_at: i.created_at,
    created_by: creator ? userBasic(creator) : null,
    errors: i.errors,
    display_name: i.display_name,
    files_write_requestable: false,
    installation_shared: null,
    installation_status: null,
  };
}

function list(ctx: Ctx) {
  const kind = ctx.query.get("kind");
  const items = ctx.store.data.integrations
    .filter((i) => i.team_id === ctx.project.id && (kind === null || i.kind === kind))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id));
  return { status: 200, body: offsetPage(ctx, items, (i) => renderIntegration(ctx, i)) };
}

function retrieve(ctx: Ctx) {
  const id = /^\d+$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : Number.NaN;
  const found = ctx.store.integration(ctx.project.id, id);
  if (!found) throw notFound();
  return { status: 200, body: renderIntegration(ctx, found) };
}

/**
 * A primary key as DRF's PrimaryKeyRelatedField takes it: null passes, booleans and non-numbers are
 * "Incorrect type", digit strings and integers are looked up in the project (else "does not exist").
 */
export function resolveIntegration(ctx: Ctx, value: unknown, attr: string): IntegrationRecord | null {
  if (value === null) return null;
  const id = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof id !== "number" || !Number.isInteger(id)) {
    throw invalid(`Incorrect type. Expected pk value, received ${pyType(value)}.`, attr, "incorrect_type");
  }
  const found = ctx.store.integration(ctx.project.id, id);
  if (!found) {
    throw invalid(`Invalid pk "${String(value)}" - object does not exist.`, attr, "does_not_exist");
  }
  return found;
}

export function registerIntegrations(router: Router): void {
  const base = "/api/projects/:project/integrations";
  router.add({ method: "GET", pattern: base, scope: "integration:read", handler: list });
  router.add({ method: "GET", pattern: `${base}/:id`, scope: "integration:read", handler: retrieve });
}
