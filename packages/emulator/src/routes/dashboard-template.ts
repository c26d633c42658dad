/**
 * `create_from_template_json`'s body check: the service's parser validates `template` against
 * products/dashboards/backend/api/dashboard_template_schema.json with `jsonschema.validate` and answers
 * 400 with `str(error)` as the detail (no attr). This is that schema, checked the way jsonschema reports
 * it: of all errors, the least deep wins (`best_match`), the first found on a tie (the schema's keyword
 * order: `type`, `required` in its order, then `properties` in theirs). The detail keeps jsonschema's
 * layout (message, "Failed validating '<keyword>' in schema[...]:", the sub-schema, "On instance[...]:",
 * the instance); values print as Python's `repr`, on one line where `pprint` would wrap long ones.
 */
import { isDict } from "../fields.js";

type Json = unknown;
type Schema = Record<string, Json>;

const STRING = { type: "string" };
const VARIABLE: Schema = {
  type: "object",
  required: ["id", "name", "type", "default", "description", "required"],
  properties: {
    id: STRING,
    name: STRING,
    type: { enum: ["event", "element"] },
    default: { type: "object" },
    description: STRING,
    required: { type: "boolean" },
  },
};

export const TEMPLATE_SCHEMA: Schema = {
  type: "object",
  required: ["template_name", "dashboard_description", "dashboard_filters", "tiles"],
  properties: {
    id: STRING,
    template_name: STRING,
    team_id: { type: ["number", "null"] },
    created_at: STRING,
    image_url: { type: ["string", "null"] },
    dashboard_description: STRING,
    dashboard_filters: { type: "object" },
    tiles: { type: "array", minItems: 1, items: { type: "object" } },
    variables: { anyOf: [{ type: "array", items: VARIABLE }, { type: "null" }] },
    tags: { type: "array", items: STRING },
    is_featured: { type: "boolean" },
  },
};

/** Python's `repr` of a JSON value. */
export function pyRepr(value: Json): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\t/g, "\\t");
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isDict(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

interface SchemaError {
  message: string;
  keyword: string;
  schema: Schema;
  schemaPath: Array<string | number>;
  path: Array<string | number>;
  instance: Json;
}

function isType(value: Json, type: string): boolean {
  switch (type) {
    case "object":
      return isDict(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    default:
      return true;
  }
}

function* errorsOf(
  value: Json,
  schema: Schema,
  path: Array<string | number>,
  schemaPath: Array<string | number>,
): Generator<SchemaError> {
  const at = (keyword: string, message: string): SchemaError => ({
    message,
    keyword,
    schema,
    schemaPath: [...schemaPath, keyword],
    path,
    instance: value,
  });
  for (const keyword of Object.keys(schema)) {
    const rule = schema[keyword];
    if (keyword === "type") {
      const types = Array.isArray(rule) ? (rule as string[]) : [rule as string];
      if (!types.some((t) => isType(value, t))) {
        yield at(keyword, `${pyRepr(value)} is not of type ${types.map(pyRepr).join(", ")}`);
      }
    } else if (keyword === "required" && isDict(value)) {
      for (const name of rule as string[]) {
        if (!(name in value)) yield at(keyword, `${pyRepr(name)} is a required property`);
      }
    } else if (keyword === "properties" && isDict(value)) {
      for (const [name, sub] of Object.entries(rule as Record<string, Schema>)) {
        if (name in value) yield* errorsOf(value[name], sub, [...path, name], [...schemaPath, keyword, name]);
      }
    } else if (keyword === "items" && Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        yield* errorsOf(item, rule as Schema, [...path, i], [...schemaPath, keyword]);
      }
    } else if (keyword === "minItems" && Array.isArray(value) && value.length < (rule as number)) {
      yield at(
        keyword,
        rule === 1 ? `${pyRepr(value)} should be non-empty` : `${pyRepr(value)} is too short`,
      );
    } else if (keyword === "enum" && !(rule as Json[]).includes(value as never)) {
      yield at(keyword, `${pyRepr(value)} is not one of ${pyRepr(rule)}`);
    } else if (keyword === "anyOf") {
      const options = rule as Schema[];
      const valid = options.some(
        (option, i) => errorsOf(value, option, path, [...schemaPath, keyword, i]).next().done,
      );
      if (!valid) yield at(keyword, `${pyRepr(value)} is not valid under any of the given schemas`);
    }
  }
}

const indexes = (parts: Array<string | number>) => parts.map((p) => `[${pyRepr(p)}]`).join("");

/** The detail of the service's 400 for an invalid template, or undefined when it is valid. */
export function templateError(template: Json): string | undefined {
  let best: SchemaError | undefined;
  for (const error of errorsOf(template, TEMPLATE_SCHEMA, [], [])) {
    if (best === undefined || error.path.length < best.path.length) best = error;
  }
  if (!best) return undefined;
  return [
    best.message,
    "",
    `Failed validating ${pyRepr(best.keyword)} in schema${indexes(best.schemaPath.slice(0, -1))}:`,
    `    ${pyRepr(best.schema)}`,
    "",
    `On instance${indexes(best.path)}:`,
    `    ${pyRepr(best.instance)}`,
  ].join("\n");
}
