/**
 * A small router: `:name` segments capture, the trailing slash is optional (like the service's router),
 * and `/api/environments/{id}/...` is served by the `/api/projects/{id}/...` routes.
 * Each route declares the API-key scope it needs; `scope: null` means the action has no scope mapping.
 */
import type { IncomingHttpHeaders } from "node:http";
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
  user: UserRecord;
  key: ApiKeyRecord;
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

  /** HEAD is served by the GET route (Node drops the body). */
  match(requestMethod: string, rawPath: string): Match {
    const method = requestMethod === "HEAD" ? "GET" : requestMethod;
    const path = rawPath.replace(/^\/api\/environments\//, "/api/projects/");
    const allowed: string[] = [];
    for (const route of this.routes) {
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
