/**
 * The configuration's JSON Schema, composed from the kinds: the file's own keys (`project`, `ignore`)
 * plus, for each kind, its list key and its item schema. ajv validates each document with it (a file
 * serving environments at its top level, then each environment's merged document); editors read it,
 * with what such files may hold before merging (published-schema.ts), from schemas/config.schema.json,
 * which `npm run schemas` writes from the built-in kinds (a test keeps the committed file equal to it).
 * Compiled once per list of kinds, on first use.
 */
import { createRequire } from "node:module";
import type { Ajv2020 as Ajv2020Class, ErrorObject, Options } from "ajv/dist/2020.js";
import { environmentKeys } from "./environments/schema.js";
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
        description:
          "Project id (a single-project file; a file serving environments names them instead). Default: --project or POSTHOG_PROJECT_ID.",
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
      ...environmentKeys(),
      ...lists,
    },
    $defs: defs,
  };
}

type AjvModule = typeof import("ajv/dist/2020.js");

/** A compiled validator: true when `data` fits; `errors` then holds ajv's error objects. */
type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * ajv's options, shared with scripts/build-validator.mjs, which compiles the built-in kinds' schema into
 * standalone code at build time. Unoptimised code compiles about 60 ms faster; validating a whole config
 * is a few ms either way.
 */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strict: true,
  allowUnionTypes: true,
  code: { optimize: false },
};

/** The keywords of ours that the schema carries (for editors and for the secret list). */
export function addKeywords(ajv: Ajv2020Class): void {
  ajv.addKeyword({ keyword: "x-secret", schemaType: "boolean" });
  ajv.addKeyword({ keyword: "x-expect", schemaType: "string" });
}

/** The build's precompiled validator (dist/config/), with the exact schema text it was compiled from. */
interface Precompiled {
  schemaText: string;
  validate: Validate;
}

/**
 * The precompiled validator, when this module runs from the build (dist/) and the build wrote one; not
 * under the test runner (src/) or inside the action's bundle, which compile on first use instead.
 */
function precompiled(): Precompiled | undefined {
  try {
    return createRequire(import.meta.url)("./schema-validator.generated.cjs") as Precompiled;
  } catch (err) {
    if ((err as { code?: unknown }).code === "MODULE_NOT_FOUND") return undefined;
    throw err;
  }
}

const compiledFor = new WeakMap<readonly ConfigKind[], Validate>();

/**
 * The validator for a list of kinds, compiled once. Compiling the built-in schema with ajv costs a
 * `validate` run more than its own work (about 40 ms of a 190 ms start-up), so the build compiles it
 * ahead of time; that code is used only when the schema composed now is exactly the one it was compiled
 * from (other kinds, such as the tests' extra kind, or a stale build compile here), and ajv itself is
 * loaded only then.
 */
function validator(kinds: readonly ConfigKind[]): Validate {
  let validate = compiledFor.get(kinds);
  if (validate === undefined) {
    const schema = composeSchema(kinds);
    const built = precompiled();
    if (built !== undefined && built.schemaText === JSON.stringify(schema)) {
      validate = built.validate;
    } else {
      const ajvModule: AjvModule = createRequire(import.meta.url)("ajv/dist/2020.js");
      const ajv = new ajvModule.Ajv2020(AJV_OPTIONS);
      addKeywords(ajv);
      validate = ajv.compile(schema);
    }
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
