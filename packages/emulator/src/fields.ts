/**
 * Field parsing with the service's (Django REST Framework's) coercions and messages: numbers are
 * accepted as strings, "true"/"1" as booleans, choices compared as strings; the first failure is thrown
 * as a 400 with the field name (nested names joined with `__`) as `attr`.
 */
import { invalid } from "./errors.js";

export type Body = Record<string, unknown>;

/** Python's type name for a JSON value, as the service's messages print it. */
export function pyType(value: unknown): string {
  if (value === null) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return "dict";
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request body must be a JSON object. */
export function asBody(value: unknown): Body {
  if (value === undefined) return {};
  if (!isDict(value)) {
    throw invalid(`Invalid data. Expected a dictionary, but got ${pyType(value)}.`, null);
  }
  return value;
}

function nullCheck(value: unknown, attr: string, nullable: boolean): value is null {
  if (value !== null) return false;
  if (!nullable) throw invalid("This field may not be null.", attr, "null");
  return true;
}

export function parseString(
  value: unknown,
  attr: string,
  opts: { nullable?: boolean; blank?: boolean; maxLength?: number } = {},
): string | null {
  if (nullCheck(value, attr, opts.nullable ?? false)) return null;
  if (typeof value !== "string" && typeof value !== "number") {
    throw invalid("Not a valid string.", attr);
  }
  const text = String(value);
  if (text.trim() === "" && opts.blank === false)
    throw invalid("This field may not be blank.", attr, "blank");
  if (opts.maxLength !== undefined && text.length > opts.maxLength) {
    throw invalid(`Ensure this field has no more than ${opts.maxLength} characters.`, attr, "max_length");
  }
  return text;
}

const TRUE = new Set<unknown>([true, 1, "true", "True", "TRUE", "1", "yes", "on", "y", "t"]);
const FALSE = new Set<unknown>([false, 0, "false", "False", "FALSE", "0", "no", "off", "n", "f"]);

export function parseBool(value: unknown, attr: string, nullable = false): boolean | null {
  if (nullCheck(value, attr, nullable)) return null;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw invalid("Must be a valid boolean.", attr);
}

export function parseInteger(value: unknown, attr: string, nullable = false): number | null {
  if (nullCheck(value, attr, nullable)) return null;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n)) throw invalid("A valid integer is required.", attr);
  return n;
}

export function parseChoice<T extends string | number>(
  value: unknown,
  attr: string,
  choices: readonly T[],
): T {
  // A ChoiceField without allow_null refuses null before looking at the choices.
  nullCheck(value, attr, false);
  const found = choices.find((c) => String(c) === String(value));
  if (found === undefined || isDict(value) || Array.isArray(value)) {
    throw invalid(`"${displayValue(value)}" is not a valid choice.`, attr, "invalid_choice");
  }
  return found;
}

export function parseDict(value: unknown, attr: string): Record<string, unknown> {
  if (!isDict(value)) throw invalid(`Expected a dictionary of items but got type "${pyType(value)}".`, attr);
  return value;
}

export function parseList(value: unknown, attr: string, nullable = false): unknown[] | null {
  if (nullCheck(value, attr, nullable)) return null;
  if (!Array.isArray(value)) throw invalid(`Expected a list of items but got type "${pyType(value)}".`, attr);
  return value;
}

/** ISO 8601 date-time; a naive value is taken as UTC like the service's default timezone. */
export function parseDateTime(value: unknown, attr: string, nullable = true): string | null {
  if (nullCheck(value, attr, nullable)) return null;
  const text = typeof value === "string" ? value : "";
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(hasZone(text) ? text : `${text}Z`) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw invalid(
      "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
      attr,
    );
  }
  return new Date(ms).toISOString();
}

export function hasZone(text: string): boolean {
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(text.trim()) && /T|\s/.test(text);
}

/** How Python would print the value inside a message. */
export function displayValue(value: unknown): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null) return "None";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Python's `int()` of a string: optional sign, digits (underscores between), surrounding spaces. */
export function pyInt(text: string): number | undefined {
  return /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(text) ? Number(text.replace(/_/g, "")) : undefined;
}
