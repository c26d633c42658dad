/**
 * `GET /api/personal_api_keys/@current/`: the key used for the request, for any key without a scope
 * (service-api.md §8, newest). Every other action of that viewset refuses personal API keys with the
 * viewset's own (capitalised) wording.
 */
import { createHash } from "node:crypto";
import { NO_KEY_ACCESS_OLD } from "../auth.js";
import { forbidden, notFound } from "../errors.js";
import type { Ctx, Router } from "../router.js";

/** A stable, non-secret id for a key (the service's ids are random tokens). */
function keyId(key: string): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 22);
}

function current(ctx: Ctx) {
  const k = ctx.key;
  // Only a key has a "current key": a session asks for nothing [inferred].
  if (!k) throw notFound();
  return {
    status: 200,
    body: {
      id: keyId(k.key),
      label: k.label ?? "Emulator key",
      value: null,
      mask_value: `${k.key.slice(0, 4)}...${k.key.slice(-4)}`,
      created_at: k.created_at ?? "2025-01-01T00:00:00Z",
      last_used_at: ctx.now.toISOString(),
      user_id: ctx.user.id,
      scopes: k.scopes.length === 0 ? ["*"] : [...k.scopes],
      scoped_teams: k.scoped_teams ?? [],
      scoped_organizations: [],
      last_rolled_at: null,
    },
  };
}

function refuse(): never {
  throw forbidden(NO_KEY_ACCESS_OLD);
}

export function registerPersonalApiKeys(router: Router): void {
  const base = "/api/personal_api_keys";
  router.add({ method: "GET", pattern: `${base}/@current`, scope: false, handler: current });
  for (const method of ["GET", "POST"]) router.add({ method, pattern: base, scope: false, handler: refuse });
  for (const method of ["GET", "PATCH", "PUT", "DELETE"]) {
    router.add({ method, pattern: `${base}/:id`, scope: false, handler: refuse });
  }
}
