/**
 * The action part of a seed: actions (rows as the ORM stores them: steps as given, the keys an action
 * step has kept), hog functions (as far as they name actions) and persons (as far as static cohorts
 * hold them). Identity fields required; defaults as the service's models have them.
 */
import { SeedError } from "./seed-error.js";
import type { ActionRecord, HogFunctionRecord, PersonRecord, StoreData } from "./types.js";

type Raw = Record<string, unknown>;

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isDict = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback: string): string => (typeof v === "string" ? v : fallback);
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The keys of an action step (`ActionStepJSON`). */
export const STEP_KEYS = [
  "tag_name",
  "text",
  "text_matching",
  "href",
  "href_matching",
  "selector",
  "url",
  "url_matching",
  "event",
  "properties",
] as const;

function need<T>(record: Raw, key: string, kind: string, check: (v: unknown) => boolean): T {
  const value = record[key];
  if (!check(value)) throw new SeedError(`seed: ${kind} has a missing or invalid "${key}"`);
  return value as T;
}

function action(a: Raw, at: string): ActionRecord {
  const created = str(a.created_at, at);
  const steps = Array.isArray(a.steps) ? a.steps : Array.isArray(a.steps_json) ? a.steps_json : [];
  return {
    id: need<number>(a, "id", "an action", isInt),
    team_id: need<number>(a, "team_id", "an action", isInt),
    name: strOrNull(a.name),
    description: str(a.description, ""),
    tags: Array.isArray(a.tags) ? [...new Set(a.tags.map((t) => String(t).trim().toLowerCase()))] : [],
    post_to_slack: a.post_to_slack === true,
    slack_message_format: str(a.slack_message_format, ""),
    steps: steps
      .filter(isDict)
      .map((step) =>
        Object.fromEntries(
          Object.entries(step).filter(([k]) => (STEP_KEYS as readonly string[]).includes(k)),
        ),
      ),
    deleted: a.deleted === true,
    created_at: created,
    created_by: isInt(a.created_by) ? a.created_by : null,
    updated_at: str(a.updated_at, created),
    last_calculated_at: str(a.last_calculated_at, created),
    pinned_at: strOrNull(a.pinned_at),
    bytecode_error: strOrNull(a.bytecode_error),
  };
}

function hogFunction(h: Raw, at: string, index: number): HogFunctionRecord {
  return {
    id: str(h.id, `0190f1d2-a11f-7c3a-9d1f-${String(index + 1).padStart(12, "0")}`),
    team_id: need<number>(h, "team_id", "a hog function", isInt),
    name: str(h.name, ""),
    deleted: h.deleted === true,
    filters: isDict(h.filters) ? structuredClone(h.filters) : {},
    created_at: str(h.created_at, at),
    created_by: isInt(h.created_by) ? h.created_by : null,
  };
}

function person(p: Raw, at: string): PersonRecord {
  return {
    uuid: need<string>(p, "uuid", "a person", (v) => typeof v === "string" && v !== ""),
    team_id: need<number>(p, "team_id", "a person", isInt),
    distinct_ids: Array.isArray(p.distinct_ids) ? p.distinct_ids.map(String) : [],
    properties: isDict(p.properties) ? structuredClone(p.properties) : {},
    created_at: str(p.created_at, at),
  };
}

export function normaliseActionData(
  list: (key: string) => Raw[],
  at: string,
  sequences: Raw,
): Pick<StoreData, "actions" | "hog_functions" | "persons"> & { nextAction: number } {
  const actions = list("actions").map((a) => action(a, at));
  return {
    actions,
    hog_functions: list("hog_functions").map((h, i) => hogFunction(h, at, i)),
    persons: list("persons").map((p) => person(p, at)),
    nextAction: Math.max(isInt(sequences.action) ? sequences.action : 1, ...actions.map((a) => a.id + 1)),
  };
}
