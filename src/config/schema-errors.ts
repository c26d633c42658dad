/**
 * ajv errors → diagnostics people understand, each at the `file:line:column` of the offending node:
 * the key for an unknown key, the value for a wrong value, the object for a missing key. Messages name
 * the object ("dashboard \"Weekly KPIs\"") and the field, never ajv's own wording where we can do better.
 */
import type { ErrorObject } from "ajv";
import { cut } from "../text.js";
import type { Diagnostics } from "./diagnostics.js";
import type { ConfigKind, SchemaNode } from "./kinds.js";
import { noteAt, sourceAt } from "./located.js";
import type { ParsedFile } from "./parse.js";
import { closest, didYouMean } from "./suggest.js";

/** Keywords that only repeat what a more precise error under them already says. */
const ECHO_KEYWORDS = new Set(["if", "allOf", "anyOf", "oneOf", "then"]);

export function reportSchemaErrors(
  file: ParsedFile,
  errors: readonly ErrorObject[],
  diags: Diagnostics,
  kinds: readonly ConfigKind[],
): void {
  // A misspelt required key is one mistake: "unknown key … (did you mean "k"?)" says it all, so the
  // "missing required key k" error at the same object is dropped.
  const misspelt = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== "additionalProperties") continue;
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys((error.parentSchema as SchemaNode | undefined)?.properties ?? {});
    const match = closest(key, allowed);
    if (match !== undefined) misspelt.add(`${error.instancePath}\0${match}`);
  }
  for (const error of errors) {
    if (ECHO_KEYWORDS.has(error.keyword)) continue;
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    if (error.keyword === "required" && misspelt.has(`${error.instancePath}\0${missing}`)) continue;
    const segments = parsePointer(error.instancePath);
    const what = describe(file.data, segments, kinds);
    let at = sourceAt(file, error.instancePath);
    let message: string;
    const schema = (error.parentSchema ?? {}) as SchemaNode;
    // Values that may be secrets written by mistake are never echoed.
    const secretish = schema["x-secret"] === true || isQuiet(kinds, segments);
    const got = secretish ? "" : `; got ${shown(error.data)}`;
    switch (error.keyword) {
      case "additionalProperties": {
        const key = String((error.params as { additionalProperty: string }).additionalProperty);
        const child = `${error.instancePath}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        at = sourceAt(file, child, "key", error.instancePath);
        const allowed = Object.keys(schema.properties ?? {});
        message = `unknown key "${key}" ${what.inside}${didYouMean(key, allowed)}`;
        break;
      }
      case "required": {
        const key = String((error.params as { missingProperty: string }).missingProperty);
        message = `${what.subject} is missing the required key "${key}"`;
        break;
      }
      case "type": {
        const expected = String((error.params as { type: string }).type).split(",");
        message = `${what.subject} must be ${expected.map(typeName).join(" or ")}${got}`;
        break;
      }
      case "enum": {
        const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
        const hint =
          typeof error.data === "string" && !secretish ? didYouMean(error.data, allowed.map(String)) : "";
        message = `${what.subject} must be one of ${allowed.map(String).join(", ")}${got}${hint}`;
        break;
      }
      case "pattern":
        message = `${what.subject} must be ${schema["x-expect"] ?? "in the expected format"}${got}`;
        break;
      case "minLength":
        message =
          error.schema === 1
            ? `${what.subject} must not be empty`
            : `${what.subject} must be at least ${error.schema} characters`;
        break;
      case "maxLength":
        message = `${what.subject} must be at most ${error.schema} characters`;
        break;
      case "minimum":
        message = `${what.subject} must be at least ${error.schema}${got}`;
        break;
      case "maximum":
        message = `${what.subject} must be at most ${error.schema}${got}`;
        break;
      case "const":
        message = `${what.subject} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}${got}`;
        break;
      default:
        message = `${what.subject} ${error.message ?? "is invalid"}`;
    }
    diags.error(at.file, at.line, at.column, `${message}${noteAt(file, error.instancePath)}`);
  }
}

export function parsePointer(instancePath: string): string[] {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** True when the kind of the item at `segments` keeps the value there out of messages. */
function isQuiet(kinds: readonly ConfigKind[], segments: readonly string[]): boolean {
  const [top, index, ...rest] = segments;
  const kind = kinds.find((k) => k.key === top);
  if (kind?.quiet === undefined || index === undefined) return false;
  return kind.quiet(rest.map((s) => `/${s.replaceAll("~", "~0").replaceAll("/", "~1")}`).join(""));
}

/**
 * Names the node at `segments` for a message: `subject` reads "pinned of dashboard \"X\"", `inside`
 * reads "in sharing of dashboard \"X\"" (or "in dashboard \"X\"" for the object itself).
 */
export function describe(
  data: unknown,
  segments: readonly string[],
  kinds: readonly ConfigKind[],
): { subject: string; inside: string } {
  const [top, index, ...rest] = segments;
  if (top === undefined) return { subject: "the file", inside: "at the top level" };
  const kind = kinds.find((k) => k.key === top)?.words.one;
  if (kind === undefined || index === undefined) {
    const field = fieldName(segments);
    return { subject: field, inside: `in ${field}` };
  }
  const item = (data as Record<string, unknown[]>)[top]?.[Number(index)] as
    | Record<string, unknown>
    | undefined;
  const name = item?.name;
  const owner =
    typeof name === "string" && name !== "" ? `${kind} "${name}"` : `${kind} #${Number(index) + 1}`;
  if (rest.length === 0) return { subject: owner, inside: `in ${owner}` };
  const field = fieldName(rest);
  return { subject: `${field} of ${owner}`, inside: `in ${field} of ${owner}` };
}

function fieldName(segments: readonly string[]): string {
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === "" ? s : `${acc}.${s}`), "");
}

function typeName(type: string): string {
  switch (type) {
    case "object":
      return "a mapping";
    case "array":
      return "a list";
    case "boolean":
      return "true or false";
    case "integer":
      return "an integer";
    case "null":
      return "null";
    default:
      return `a ${type}`;
  }
}

/** A short rendering of a wrong value (callers never pass destination config values: they may be secrets). */
export function shown(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return JSON.stringify(cut(value, 38));
  return String(value);
}
