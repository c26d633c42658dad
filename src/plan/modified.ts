/**
 * When, and by whom, the service last modified a live object, from the fields its answers have for it
 * (`last_modified_at` / `last_updated_at` / `updated_at`, and `last_modified_by`, a user record): what
 * plans show for the objects they change (and drift labels, and a saved plan's refusal). Dashboards'
 * list answers carry none; batch exports only when; flags and insights when and by whom.
 */
import type { Action, LiveProject } from "./types.js";

/**
 * When (and by whom) the service last modified the live object, from the fields it has for that:
 * `last_modified_at` / `last_updated_at` / `updated_at`, and `last_modified_by` (a user record).
 */
export function lastModified(
  action: Pick<Action, "object">,
  live: readonly LiveProject[],
): Action["modified"] | undefined {
  const object = liveRecord(action, live);
  if (object === undefined) return undefined;
  const at = [object.last_modified_at, object.last_updated_at, object.updated_at].find(
    (v): v is string => typeof v === "string" && !Number.isNaN(Date.parse(v)),
  );
  const byRecord = object.last_modified_by;
  const by =
    typeof byRecord === "object" &&
    byRecord !== null &&
    typeof (byRecord as { uuid?: unknown }).uuid === "string"
      ? ((byRecord as { uuid: string }).uuid.toLowerCase() as string)
      : undefined;
  if (at === undefined && by === undefined) return undefined;
  return { ...(at !== undefined ? { at } : {}), ...(by !== undefined ? { by } : {}) };
}

/**
 * Who last modified the live object, as its answer names them (`Ana Lima <ana@acme.com>`, the email
 * alone, or nothing), and when: for messages that have no people directory at hand.
 */
export function modifiedWords(
  action: Pick<Action, "object">,
  live: readonly LiveProject[],
): string | undefined {
  const object = liveRecord(action, live);
  const record = object?.last_modified_by as {
    email?: unknown;
    first_name?: unknown;
    last_name?: unknown;
  } | null;
  const email = typeof record?.email === "string" && record.email !== "" ? record.email : undefined;
  const name = [record?.first_name, record?.last_name]
    .filter((p) => typeof p === "string" && p !== "")
    .join(" ");
  const who = email === undefined ? undefined : name === "" ? email : `${name} <${email}>`;
  const at = lastModified(action, live)?.at;
  if (who === undefined && at === undefined) return undefined;
  return [who === undefined ? "" : `by ${who}`, at === undefined ? "" : `at ${at}`].filter(Boolean).join(" ");
}

/** The live object an action is about, as the service answered it (undefined for a create). */
function liveRecord(
  action: Pick<Action, "object">,
  live: readonly LiveProject[],
): Record<string, unknown> | undefined {
  const id = action.object.id;
  if (id === undefined) return undefined;
  const project = live.find((p) => p.project === action.object.project);
  return project?.kinds[action.object.kind]?.objects.find((o) => o.id === id) as
    | Record<string, unknown>
    | undefined;
}
