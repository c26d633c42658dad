/**
 * What the service answers about cohorts (service-api.md §12; posthog/api/cohort.py): each answer's
 * type, as the real service sends it (only the fields the tool reads or writes are typed precisely),
 * and its shape, checked before anything reads it (SPEC §8).
 */
import { type AnswerShape, answerTypes, listPage } from "../../service/shapes.js";

/** A cohort (CohortSerializer): the fields the tool reads. */
export interface Cohort {
  id: number;
  /** May be null or blank on the service. */
  name: string | null;
  description?: string | null;
  /** As stored: ids for the cohorts and actions it names, the compiled bytecode on every condition. */
  filters?: Record<string, unknown> | null;
  is_static?: boolean;
  deleted?: boolean;
  is_calculating?: boolean;
  /** Recomputed by the service whenever the filters are written; never managed. */
  cohort_type?: string | null;
}

const { obj, int, strOrNull } = answerTypes;
const boolOrNull = { type: ["boolean", "null"] };

const cohort = obj(
  {
    id: int,
    name: strOrNull,
    description: strOrNull,
    filters: { type: ["object", "null"] },
    is_static: boolOrNull,
    deleted: boolOrNull,
    is_calculating: boolOrNull,
  },
  ["id", "name"],
);

/** The shapes of the cohorts' answers, by name (the registry lists them: `Kind.answers`). */
export const COHORT_ANSWERS = {
  /** A page of the list (limit/offset, 100 a page; `search` answers one too). */
  cohortPage: listPage(cohort),
  /** One cohort: retrieve (soft-deleted ones too), create and PATCH. */
  cohort: { schema: cohort },
} as const satisfies Record<string, AnswerShape>;
