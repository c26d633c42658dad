/**
 * After a create whose answer was lost: which live objects with the declared name are new, i.e. not
 * among the ids the plan already knew (a replace creates a namesake before deleting the old one).
 */
import type { ObjectRef } from "../plan/types.js";
import { collect, type ServiceClient } from "../service/index.js";

export async function findCreated(
  client: ServiceClient,
  object: ObjectRef,
  knownIds: ReadonlySet<number | string>,
): Promise<Array<number | string>> {
  const live =
    object.kind === "dashboard"
      ? await collect(client.dashboards.list(object.project, { search: object.name, limit: 100 }))
      : await collect(client.batchExports.list(object.project, { limit: 100 }));
  return live.filter((o) => o.name === object.name && !knownIds.has(o.id)).map((o) => o.id);
}
