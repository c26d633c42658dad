import type { ReferenceSpec } from "../define/references.js";
import { FEATURE_FLAG } from "./name.js";

/**
 * Where a flag's filters name other objects: a flag condition names the other flag by key (the
 * service stores its id, as a string, under the same key); a cohort condition names a cohort by
 * `cohort:` (the service stores `{key: "id", value: ID}`) or by its raw id (`value:`).
 */
export const FLAG_REFERENCES: readonly ReferenceSpec[] = [
  {
    kind: FEATURE_FLAG,
    at: "groups/*/properties/*",
    where: { type: "flag" },
    name: "key",
    id: "key",
    idType: "string",
    word: "flag",
    verb: { one: "depends on", many: "depend on" },
    holder: "flag condition",
  },
  {
    kind: "cohort",
    at: "groups/*/properties/*",
    where: { type: "cohort" },
    name: "cohort",
    id: "value",
    fixed: { key: "id" },
  },
];

/** The flag conditions' references alone: what a live flag depends on, by id. */
export const FLAG_CONDITIONS: readonly ReferenceSpec[] = FLAG_REFERENCES.filter(
  (r) => r.kind === FEATURE_FLAG,
);
