/**
 * The JSON Schema (schemas/config.schema.json) is the single source of the format: ajv validates with it,
 * editors show its descriptions, and the secret destination fields are read from its `x-secret` marks.
 * Compiled once per process, on first use.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { DestinationType } from "./types.js";

export type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  enum?: unknown[];
  description?: string;
  "x-secret"?: boolean;
  "x-expect"?: string;
  $defs?: Record<string, SchemaNode>;
};

const SCHEMA_URL = new URL("../../schemas/config.schema.json", import.meta.url);

let cached: { schema: SchemaNode; validate: ValidateFunction } | undefined;

function compiled(): { schema: SchemaNode; validate: ValidateFunction } {
  if (cached === undefined) {
    const schema = JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as SchemaNode;
    // Unoptimised code compiles about 60 ms faster; validating a whole config is a few ms either way.
    const ajv = new Ajv2020({
      allErrors: true,
      verbose: true,
      strict: true,
      allowUnionTypes: true,
      code: { optimize: false },
    });
    ajv.addKeyword({ keyword: "x-secret", schemaType: "boolean" });
    ajv.addKeyword({ keyword: "x-expect", schemaType: "string" });
    cached = { schema, validate: ajv.compile(schema) };
  }
  return cached;
}

export function validateSchema(data: unknown): ErrorObject[] {
  const { validate } = compiled();
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

const secretCache = new Map<string, string[]>();

/**
 * Dotted paths of the secret fields of a destination type's config, e.g. `password` or
 * `copy_inputs.authorization.aws_access_key_id`. Empty for types without secrets.
 */
export function secretPaths(type: DestinationType): string[] {
  let paths = secretCache.get(type);
  if (paths === undefined) {
    paths = [];
    const config = compiled().schema.$defs?.[`config${type}`];
    if (config !== undefined) collectSecrets(config, "", paths);
    secretCache.set(type, paths);
  }
  return paths;
}

function collectSecrets(node: SchemaNode, prefix: string, out: string[]): void {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (child["x-secret"] === true) out.push(path);
    else if (child.properties !== undefined) collectSecrets(child, path, out);
  }
}
