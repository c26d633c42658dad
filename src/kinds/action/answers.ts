/**
 * What the service answers about actions (service-api.md §13; products/actions/backend/api/action.py):
 * each answer's type, as the real service sends it (only the fields the tool reads or writes are typed
 * precisely), and its shape, checked before anything reads it (SPEC §8). The list is the service's own:
 * `{count, results}` with every action (no `next` links).
 */
import { type AnswerShape, answerObject, answerTypes } from "../../service/shapes.js";

/** One step of an action, as stored: all ten keys (omitted ones null, `url_matching` "contains"). */
export type ActionStep = Record<string, unknown>;

/** An action (ActionSerializer): the fields the tool reads. */
export interface PostHogAction {
  id: number;
  name: string | null;
  description?: string | null;
  tags?: string[];
  steps?: ActionStep[] | null;
  /** When it was pinned (the service's clock), or null. */
  pinned_at?: string | null;
  deleted?: boolean;
}

const { obj, str, strOrNull, int, list, bool } = answerTypes;

const action = obj(
  {
    id: int,
    name: strOrNull,
    description: strOrNull,
    tags: list(str),
    steps: { type: ["array", "null"], items: { type: "object" } },
    pinned_at: strOrNull,
    deleted: bool,
  },
  ["id", "name"],
);

/** The shapes of the actions' answers, by name (the registry lists them: `Kind.answers`). */
export const ACTION_ANSWERS = {
  /** The list: `count` and every action in `results`; `next` only where an older service pages. */
  actionPage: {
    schema: answerObject({ results: list(action), count: { type: "integer", minimum: 0 }, next: strOrNull }, [
      "results",
      "count",
    ]),
    list: "results",
  },
  /** One action: retrieve, create and PATCH. */
  action: { schema: action },
} as const satisfies Record<string, AnswerShape>;
