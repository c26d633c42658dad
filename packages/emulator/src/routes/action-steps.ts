/**
 * An action's steps (service-api.md §13.3; products/actions/backend/api/action.py
 * `ActionStepJSONSerializer` and the model's `ActionStepJSON`): validated field by field (unknown keys
 * dropped, `url` and `selector` trimmed, blank strings refused, `*_matching` one of contains / regex /
 * exact, a `regex` pattern that RE2 cannot compile refused), stored with all ten keys (omitted ones
 * null, but `url_matching` "contains"), and read back with the computed `selector_regex`.
 */
import { RE2JS } from "re2js";
import { invalid } from "../errors.js";
import { displayValue, isDict, pyType } from "../fields.js";
import { STEP_KEYS } from "../seed-actions.js";
import type { ActionStepRecord } from "../types.js";

const MATCHING = ["contains", "regex", "exact"];
/** Fields whose surrounding whitespace DRF trims (the serializer leaves `trim_whitespace` on). */
const TRIMMED = new Set(["selector", "url"]);

/** `ActionStepJSON(**step)`: the ten keys, omitted ones at their defaults. */
export function fillStep(step: ActionStepRecord): ActionStepRecord {
  const out: ActionStepRecord = {};
  for (const key of STEP_KEYS)
    out[key] = key in step ? step[key] : key === "url_matching" ? "contains" : null;
  return out;
}

function charField(value: unknown, attr: string, trim: boolean): string | null {
  if (value === null) return null;
  if (typeof value === "boolean" || !(typeof value === "string" || typeof value === "number"))
    throw invalid("Not a valid string.", attr);
  let text = String(value);
  if (trim) text = text.trim();
  if (text === "") throw invalid("This field may not be blank.", attr, "blank");
  return text;
}

/** Whether RE2 (ClickHouse's engine, as `re2.compile`) accepts the pattern. */
export function compilesInRe2(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}

/** `ActionStepJSONSerializer(many=True)` then the model's setter: the steps as stored. */
export function validateSteps(raw: unknown): ActionStepRecord[] {
  if (!Array.isArray(raw)) {
    throw invalid(`Expected a list of items but got type "${pyType(raw)}".`, "steps", "not_a_list");
  }
  return raw.map((step, i) => {
    const at = (key: string) => `steps__${i}__${key}`;
    if (!isDict(step)) {
      throw invalid(
        `Invalid data. Expected a dictionary, but got ${pyType(step)}.`,
        `steps__${i}__non_field_errors`,
        "invalid",
      );
    }
    const out: ActionStepRecord = {};
    for (const key of STEP_KEYS) {
      if (!(key in step)) continue;
      const value = step[key];
      if (key === "properties") {
        if (value === null) out.properties = null;
        else if (!Array.isArray(value))
          throw invalid(`Expected a list of items but got type "${pyType(value)}".`, at(key), "not_a_list");
        else {
          value.forEach((item, j) => {
            if (!isDict(item))
              throw invalid(
                `Expected a dictionary of items but got type "${pyType(item)}".`,
                `${at(key)}__${j}`,
                "not_a_dict",
              );
          });
          out.properties = structuredClone(value);
        }
      } else if (key.endsWith("_matching")) {
        if (value === null) out[key] = null;
        else if (typeof value !== "string" || !MATCHING.includes(value))
          throw invalid(`"${displayValue(value)}" is not a valid choice.`, at(key), "invalid_choice");
        else out[key] = value;
      } else out[key] = charField(value, at(key), TRIMMED.has(key));
    }
    for (const [value, matching] of [
      ["url", "url_matching"],
      ["href", "href_matching"],
      ["text", "text_matching"],
    ] as const) {
      const pattern = out[value];
      if (
        out[matching] === "regex" &&
        typeof pattern === "string" &&
        pattern !== "" &&
        !compilesInRe2(pattern)
      ) {
        throw invalid(`Invalid regular expression: '${pattern}'`, `steps__${i}__${value}`);
      }
    }
    return fillStep(out);
  });
}

// ── selector_regex (posthog/models/event/event.py `Selector`, posthog/models/property/util.py) ────

interface SelectorPart {
  tag?: string;
  classes: string[];
  attributes: Record<string, string>;
  directDescendant: boolean;
}

function splitSelector(selector: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  let inBrackets = false;
  for (const ch of selector) {
    if (ch === "[" && quote === null) inBrackets = true;
    if (ch === "]" && quote === null) inBrackets = false;
    if ((ch === '"' || ch === "'") && inBrackets) quote = quote === null ? ch : quote === ch ? null : quote;
    if (ch === " " && !inBrackets) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

function parsePart(raw: string, directDescendant: boolean): SelectorPart {
  const part: SelectorPart = { classes: [], attributes: {}, directDescendant };
  let tag = raw;
  for (const match of raw.matchAll(/\[([^=\]]+)=["']?([^"'\]]*)["']?\]/g)) {
    part.attributes[match[1] === "id" ? "attr_id" : (match[1] as string)] = match[2] as string;
  }
  tag = tag.replace(/\[[^\]]*\]/g, "").replace(/:nth-(child|of-type)\(\d+\)/g, "");
  const hash = tag.indexOf("#");
  if (hash !== -1) {
    const rest = tag.slice(hash + 1);
    const id = rest.split(".")[0] as string;
    part.attributes.attr_id = id;
    tag = tag.slice(0, hash) + rest.slice(id.length);
  }
  const [name, ...classes] = tag.split(".");
  part.classes = classes.filter((c) => c !== "");
  if (name) part.tag = name;
  return part;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** The regular expression an action step's `selector` is matched with against an elements chain. */
export function selectorRegex(selector: unknown): string | null {
  if (typeof selector !== "string" || selector === "") return null;
  const cleaned = selector.replaceAll("> * > ", "").replaceAll("> *", "").trim();
  const tags = splitSelector(cleaned).reverse();
  const parts: SelectorPart[] = [];
  tags.forEach((tag, index) => {
    if (tag === ">" || tag === "") return;
    parts.push(parsePart(tag, index > 0 && tags[index - 1] === ">"));
  });
  let regex = "";
  for (const part of parts) {
    if (part.tag && part.tag !== "*") regex += escapeRegex(part.tag);
    if (part.classes.length > 0) regex += `.*?\\.${[...part.classes].sort().map(escapeRegex).join("\\..*?")}`;
    const attributes = Object.entries(part.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (attributes.length > 0) {
      regex += ".*?";
      for (const [key, value] of attributes) regex += `${escapeRegex(key)}="${escapeRegex(value)}".*?`;
    }
    regex += "[^;]*?($|;|:([^;^\\s]*(;|$|\\s)))";
    if (part.directDescendant) regex += ".*";
  }
  return regex === "" ? null : `(^|;)${regex}`;
}

/** A stored step as the API shows it: the ten keys and `selector_regex`. */
export function renderStep(step: ActionStepRecord): ActionStepRecord {
  const filled = fillStep(step);
  return {
    event: filled.event,
    properties: filled.properties,
    selector: filled.selector,
    selector_regex: selectorRegex(filled.selector),
    tag_name: filled.tag_name,
    text: filled.text,
    text_matching: filled.text_matching,
    href: filled.href,
    href_matching: filled.href_matching,
    url: filled.url,
    url_matching: filled.url_matching,
  };
}
