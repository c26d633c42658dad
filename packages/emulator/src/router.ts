/**
 * A small router: `:name` segments capture, the trailing slash is optional (like the service's router),
 * and `/api/environments/{id}/...` is served by the `/api/projects/{id}/...` routes.
 * Each route declares the API-key scope it needs; `scope: null` means the action has no scope mapping.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "./auth.js";
import type { Reply } from "./errors.js";
import type { Store } from "./store.js";
import type { ApiKeyRecord, OrganizationRecord, ProjectRecord, UserRecord } from "./types.js";

export interface Ctx {
  method: string;
  /** The path as requested (environments form and trailing slash kept), for pagination links. */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  body: unknown;
  headers: IncomingHttpHeaders;
  store: Store;
  /** Who the request acts as (auth.ts): a key's user, a session's user, or a sharing token's visitor. */
  principal: Principal;
  /** The caller; for a sharing token, the anonymous user (a member of no organization). */
  user: UserRecord;
  /** The personal API key of the request, when a key authenticated it. */
  key: ApiKeyRecord | undefined;
  /** Set on `/api/projects/:project/...` routes after access checks. */
  project: ProjectRecord;
  /** The project's organization, or the `:org` of organization routes. */
  org: OrganizationRecord;
  /** `http://host[:port]` from the request's Host header. */
  origin: string;
  now: Date;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface RouteSpec {
  method: string;
  pattern: string;
  /**
   * e.g. `dashboard:write`; null: no personal-API-key scope mapping (403 for scoped keys); false: any
   * key passes (e.g. `GET /api/personal_api_keys/@current/`).
   */
  scope: string | null | false;
  /** A route the newest service removed; `service.legacy_routes: false` makes it answer 404. */
  legacy?: boolean;
  /** Throttle bucket: events endpoints have their own, lower limits. */
  bucket?: "default" | "events";
  /**
   * Sharing tokens: `view` marks a route of a view that takes them (`sharing_enabled_actions`: its
   * authentication failures answer 403), `action` one of the actions a token may call.
   */
  sharing?: "view" | "action";
  /** The view's `create` action: short of resource-wide access it is refused outright (access.ts). */
  creates?: boolean;
  /** Registered under `/api/projects/` only: its `/api/environments/` twin does not exist (cohorts, actions). */
  projectsOnly?: boolean;
  handler: Handler;
}

interface CompiledRoute extends RouteSpec {
  regex: RegExp;
  names: string[];
}

export type Match =
  | { kind: "found"; route: CompiledRoute; params: Record<string, string> }
  | { kind: "method"; allowed: string[] }
  | { kind: "none" };

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(spec: RouteSpec): void {
    const names: string[] = [];
    const source = spec.pattern
      .split("/")
      .map((segment) => {
        if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(segment.slice(1));
        return "([^/]+)";
      })
      .join("/");
    this.routes.push({ ...spec, regex: new RegExp(`^${source}/?$`), names });
  }

  /** Whether the view at `rawPath` takes sharing tokens (any of its routes is marked `sharing`). */
  takesSharingTokens(rawPath: string): boolean {
    const path = rawPath.replace(/^\/api\/environments\//, "/api/projects/");
    return this.routes.some((route) => route.sharing !== undefined && route.regex.test(path));
  }

  /** HEAD is served by the GET route (Node drops the body). */
  match(requestMethod: string, rawPath: string): Match {
    const method = requestMethod === "HEAD" ? "GET" : requestMethod;
    const environments = rawPath.startsWith("/api/environments/");
    const path = rawPath.replace(/^\/api\/environments\//, "/api/projects/");
    const allowed: string[] = [];
    for (const route of this.routes) {
      if (environments && route.projectsOnly) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1] ?? "");
      });
      return { kind: "found", route, params };
    }
    return allowed.length > 0 ? { kind: "method", allowed } : { kind: "none" };
  }
}

/**
 * The `/:id` writes of a model view with the service's ForbidDestroyModel: PATCH (a partial update)
 * and PUT (a full one) through `update`, and DELETE answered with a bare 405 and no JSON body (such
 * objects are soft deleted by a PATCH of `deleted: true`). `shared` is what the three routes have in
 * common (scope, throttle bucket, sharing).
 */
export function addModelWrites(
  router: Router,
  pattern: string,
  shared: Omit<RouteSpec, "method" | "pattern" | "handler">,
  update: (ctx: Ctx, partial: boolean) => Reply | Promise<Reply>,
): void {
  router.add({ method: "PATCH", pattern, ...shared, handler: (ctx) => update(ctx, true) });
  router.add({ method: "PUT", pattern, ...shared, handler: (ctx) => update(ctx, false) });
  router.add({
    method: "DELETE",
    pattern,
    ...shared,
    handler: () => ({ status: 405, headers: { Allow: "GET, PUT, PATCH, HEAD, OPTIONS" } }),
  });
}
