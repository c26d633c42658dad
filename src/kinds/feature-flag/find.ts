/**
 * Flags found without reading the whole list (a change-scoped plan, SPEC §3 "Change-scoped plans"):
 * by key with the list's `?key=` (exact but case-insensitive on the service; only exact keys are kept)
 * and, for a key the list does not show, among the archived flags, which the list hides unless asked
 * (a declared flag may be archived live, and so may a flag another depends on); by id, soft-deleted
 * and archived flags included (a pinned soft-deleted flag is read so that its restore can be planned);
 * and the list's size from a one-item page.
 */
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import { asLive, type LiveFlag } from "./live.js";
import { featureFlagsApi } from "./service.js";

/** The live flag with exactly this key, archived or not: one request, two when the list has none. */
export async function searchFlags(client: ServiceClient, project: number, key: string): Promise<LiveFlag[]> {
  const api = featureFlagsApi(client);
  const found = await api.withKey(project, key);
  return (found.length > 0 ? found : await api.withKey(project, key, true)).map(asLive);
}

/** The flag with this id, soft-deleted or archived; undefined when the service has none (404). */
export async function getFlag(
  client: ServiceClient,
  project: number,
  id: number | string,
): Promise<LiveFlag | undefined> {
  const numeric = Number(id);
  if (!Number.isSafeInteger(numeric) || numeric < 1) return undefined;
  try {
    return asLive(await featureFlagsApi(client).get(project, numeric));
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

export function countFlags(client: ServiceClient, project: number): Promise<number> {
  return featureFlagsApi(client).count(project);
}
