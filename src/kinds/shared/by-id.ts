/**
 * One object read by its id for a change-scoped plan (SPEC §3): absent, not an error, when the id is
 * not a service id, the service has no such object (404), or it is soft-deleted (as the list, which
 * leaves those out).
 */
import { ServiceError } from "../../service/errors.js";

export async function readById<T extends { deleted?: boolean | null }>(
  id: number | string,
  read: (id: number) => Promise<T>,
): Promise<T | undefined> {
  const numeric = Number(id);
  if (!Number.isSafeInteger(numeric) || numeric < 1) return undefined;
  try {
    const found = await read(numeric);
    return found.deleted === true ? undefined : found;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}
