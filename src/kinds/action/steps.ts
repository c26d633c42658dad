/**
 * An action's `steps` (service-api.md §13.3): the whole list, OR-ed, one comparable form for both
 * sides. The service stores every step with its ten keys (an omitted key null, except `url_matching`:
 * "contains"; an explicit null stays null), trims `url` and `selector`, and answers a computed
 * `selector_regex`; so a step compares as its keys that are not null, `url_matching` only when it is
 * not "contains" (null then shown as null), `url` and `selector` trimmed, `selector_regex` never, and an
 * empty `properties` as none. That form is also what apply sends: the service fills in the rest.
 */
import type { SchemaNode } from "../../config/kinds.js";
import { isPlainObject } from "../../plan/values.js";

const MATCHING = ["contains", "regex", "exact"];

/** The ten keys of a stored step, in the service's order. */
export const STEP_KEYS = [
  "event",
  "properties",
  "selector",
  "tag_name",
  "text",
  "text_matching",
  "href",
  "href_matching",
  "url",
  "url_matching",
] as const;

const text = (description: string): SchemaNode => ({ type: ["string", "null"], description });
const matching = (what: string, fallback: string): SchemaNode => ({
  enum: [...MATCHING, null],
  description: `How ${what} is matched: contains, regex (RE2) or exact; default ${fallback}.`,
});

export const stepsSchema: SchemaNode = {
  type: "array",
  description:
    "The action's steps, the whole list: the action matches an event when any step matches it. A step's keys that are left out are not matched on.",
  items: {
    type: "object",
    description:
      "One step: an event, optionally narrowed by its properties, the page URL or the element clicked.",
    additionalProperties: false,
    properties: {
      event: text("The event's name: `$pageview`, `$autocapture`, or a custom event."),
      properties: {
        type: ["array", "null"],
        description:
          "Event or person property filters: `{key, value, operator, type}` each (type event or person).",
        items: { type: "object" },
      },
      selector: text("CSS selector of the element (autocapture)."),
      tag_name: text("HTML tag of the element (autocapture)."),
      text: text("The element's text (autocapture)."),
      text_matching: matching("`text`", "exact"),
      href: text("The link's href (autocapture)."),
      href_matching: matching("`href`", "exact"),
      url: text("The page URL (trimmed by the service)."),
      url_matching: matching("`url`", "contains"),
    },
  },
};

/** One step in its comparable form (see the module's comment). */
function comparableStep(step: unknown): unknown {
  if (!isPlainObject(step)) return step;
  const out: Record<string, unknown> = {};
  for (const key of STEP_KEYS) {
    let value = Object.hasOwn(step, key) ? step[key] : key === "url_matching" ? "contains" : null;
    if ((key === "url" || key === "selector") && typeof value === "string") value = value.trim();
    if (key === "properties" && Array.isArray(value) && value.length === 0) value = null;
    if (key === "url_matching") {
      if (value !== "contains") out[key] = value ?? null;
    } else if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/** The steps in their comparable form (none: an empty list, as the service stores none). */
export function comparableSteps(value: unknown): unknown {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value.map(comparableStep) : value;
}
