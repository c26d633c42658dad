/**
 * The configuration's JSON Schema, composed from the kinds: the file's own keys (`project`, `ignore`)
 * plus, for each kind, its list key and its item schema. ajv validates with it; editors read the same
 * schema from schemas/config.schema.json, which `npm run schemas` writes from the built-in kinds (a
 * test keeps the committed file equal to it). Compiled once per list of kinds, on first use.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { ConfigKind, SchemaNode } from "./kinds.js";

export type { SchemaNode } from "./kinds.js";

export function composeSchema(kinds: readonly ConfigKind[]): SchemaNode {
  const ignore: Record<string, SchemaNode> = {};
  const lists: Record<string, SchemaNode> = {};
  const defs: Record<string, SchemaNode> = {};
  for (const kind of kinds) {
    ignore[kind.key] = {
      type: "array",
      items: {
        type: "string",
        description:
          "A name glob: * any run of characters, ? one character, [abc] [a-z] [!a] a class, \\ escapes; case-sensitive.",
      },
      description: `${capitalise(kind.words.one)} name globs.`,
    };
    lists[kind.key] = {
      type: ["array", "null"],
      items: kind.schema.item,
      description: kind.schema.description,
    };
    for (const [name, def] of Object.entries(kind.schema.defs)) {
      if (name in defs) throw new Error(`schema definition "${name}" is declared by two kinds`);
      defs[name] = def;
    }
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "posthog-gitops configuration (version 1)",
    description: `PostHog ${kinds.map((k) => k.words.many).join(" and ")} kept in Git.`,
    type: "object",
    additionalProperties: false,
    properties: {
      project: {
        type: "integer",
        description: "Project id. Default: --project or POSTHOG_PROJECT_ID.",
        minimum: 1,
      },
      variables: {
        type: "array",
        description:
          "Environment variables that non-secret string values may use as ${NAME} (secret destination fields need no listing). POSTHOG_* and credential-looking names are refused.",
        items: {
          type: "string",
          pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
          description: "An environment variable's name.",
        },
        uniqueItems: true,
      },
      ignore: {
        type: "object",
        description: "Live objects that --prune must never touch, by name glob.",
        additionalProperties: false,
        properties: ignore,
      },
      ...lists,
    },
    $defs: defs,
  };
}

const compiledFor = new WeakMap<readonly ConfigKind[], ValidateFunction>();

function validator(kinds: readonly ConfigKind[]): ValidateFunction {
  let validate = compiledFor.get(kinds);
  if (validate === undefined) {
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
    validate = ajv.compile(composeSchema(kinds));
    compiledFor.set(kinds, validate);
  }
  return validate;
}

export function validateSchema(kinds: readonly ConfigKind[], data: unknown): ErrorObject[] {
  const validate = validator(kinds);
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
