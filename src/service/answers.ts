/**
 * Checks a parsed 2xx answer against its shape (shapes.ts, or a kind's own) and says in one short
 * phrase what is wrong, e.g. "results is not a list (it is a string)" or "results[3] has no id". The
 * transport imports this module on the first answer it checks, and each shape is compiled the first
 * time it is needed, so `validate` and other offline commands load none of it.
 *
 * Phrases name positions and the schema's own words only, never values from the answer: a service
 * (or a proxy in front of it) can put anything in a body, and the phrase ends up in a user-facing line.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { AnswerShape } from "./shapes.js";

let ajv: Ajv2020 | undefined;
const compiled = new Map<AnswerShape, ValidateFunction>();

function validator(shape: AnswerShape): ValidateFunction {
  let validate = compiled.get(shape);
  if (validate === undefined) {
    // The first compile is about 7 ms this way instead of 30: the shapes are checked against the
    // meta-schema by test/service/shapes.test.ts, not on every run; unoptimised code compiles faster.
    ajv ??= new Ajv2020({
      strict: true,
      allowUnionTypes: true,
      meta: false,
      validateSchema: false,
      code: { optimize: false },
    });
    validate = ajv.compile(shape.schema);
    compiled.set(shape, validate);
  }
  return validate;
}

/** undefined when `value` has the shape; otherwise what is wrong, as a short phrase. */
export function checkAnswer(shape: AnswerShape, value: unknown): string | undefined {
  const validate = validator(shape);
  if (validate(value)) return undefined;
  const error = validate.errors?.[0];
  return error ? describe(error, value) : "its shape is wrong";
}

/** How many items a list page holds (for progress counts); undefined for other shapes. */
export function itemCount(shape: AnswerShape, value: unknown): number | undefined {
  const where = shape.list;
  if (where === "array") return Array.isArray(value) ? value.length : undefined;
  if (where === "results") {
    const results = (value as { results?: unknown } | null)?.results;
    return Array.isArray(results) ? results.length : undefined;
  }
  return undefined;
}

function describe(error: ErrorObject, root: unknown): string {
  const where = position(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type": {
      const actual = kindOf(valueAt(root, error.instancePath));
      return `${where} is not ${typeWords(params.type)} (it is ${actual})`;
    }
    case "required":
      return `${where} has no ${String(params.missingProperty)}`;
    case "enum":
      return `${where} is not one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "minimum":
      return `${where} is below ${String(params.limit)}`;
    default:
      return `${where} ${error.message ?? "is wrong"}`;
  }
}

/** `/results/3/user` → `results[3].user`; the root is "the answer", a top-level item `answer[0]`. */
function position(pointer: string): string {
  if (pointer === "") return "the answer";
  let text = "";
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(part)) text += `${text === "" ? "answer" : ""}[${part}]`;
    else text += text === "" ? part : `.${part}`;
  }
  return text;
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    value =
      value !== null && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

const TYPE_WORDS: Record<string, string> = {
  object: "an object",
  array: "a list",
  string: "a string",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  null: "null",
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(",");
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(" or ");
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "number") return Number.isInteger(value) ? "a whole number" : "a number";
  return TYPE_WORDS[typeof value] ?? typeof value;
}
