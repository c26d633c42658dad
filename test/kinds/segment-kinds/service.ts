/**
 * A fake service holding PostHog models at `/api/projects/7/<collection>/`, the way the service's
 * model viewsets answer (service-api.md §1, §12): a limit/offset list without soft-deleted objects,
 * filtered by `search` (contains, case-insensitive), a retrieve that answers 404 for a soft-deleted
 * object, a create (201) giving defaults, a PATCH that merges (a soft delete and a restore are PATCHes
 * of `deleted`), no DELETE (405). Every request is recorded by the fake server.
 */
import type { ServerResponse } from "node:http";
import { json, type Seen } from "../../service/fake-server.js";

type Row = Record<string, unknown> & { id: number; name: string; deleted?: boolean };

export class ModelStore {
  readonly rows = new Map<string, Row[]>();
  next = 100;

  /** The objects of a collection that are not soft-deleted. */
  live(collection: string): Row[] {
    return (this.rows.get(collection) ?? []).filter((r) => r.deleted !== true);
  }

  add(collection: string, row: Omit<Row, "id"> & { id?: number }): Row {
    const full = { ...row, id: row.id ?? this.next++ } as Row;
    this.rows.set(collection, [...(this.rows.get(collection) ?? []), full]);
    return full;
  }

  handle(req: Seen, res: ServerResponse): void {
    json(res, ...this.answer(req));
  }

  private answer(req: Seen): [number, unknown] {
    const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null };
    const match = /^\/api\/projects\/7\/([a-z_]+)\/(?:(\d+)\/)?$/.exec(req.path);
    if (!match) return [404, notFound];
    const collection = match[1] as string;
    const all = this.rows.get(collection) ?? [];
    if (match[2] === undefined) {
      if (req.method === "POST") return [201, this.add(collection, { rules: {}, ...(req.body as Row) })];
      if (req.method !== "GET") return [405, { detail: "Method not allowed." }];
      const search = req.query.get("search")?.toLowerCase();
      const found = this.live(collection).filter((r) => !search || r.name.toLowerCase().includes(search));
      const limit = Number(req.query.get("limit") ?? 100);
      const offset = Number(req.query.get("offset") ?? 0);
      const next =
        offset + limit < found.length ? `${req.path}?limit=${limit}&offset=${offset + limit}` : null;
      return [
        200,
        { count: found.length, next, previous: null, results: found.slice(offset, offset + limit) },
      ];
    }
    const row = all.find((r) => r.id === Number(match[2]));
    if (row === undefined) return [404, notFound];
    if (req.method === "GET") return row.deleted === true ? [404, notFound] : [200, row];
    if (req.method === "PATCH") return [200, Object.assign(row, req.body)];
    return [405, { detail: "Method not allowed." }];
  }
}
