/**
 * The configuration schema's part for environments (SPEC §9): a file's `environments:` (the
 * declaration, a mapping of entries; or in a shared file `all` or a list of names) and an overlay's
 * `overlay:`. Composed into the file schema by ../schema.ts, so editors know them too.
 */
import type { SchemaNode } from "../kinds.js";

/** An environment's name: a word that reads well in a file name and a command line. */
export const ENVIRONMENT_NAME = "^[A-Za-z][A-Za-z0-9_-]{0,62}$";
const NAME_WORDS = "a name of letters, digits, - and _, starting with a letter";
const VARIABLE_NAME = "^[A-Za-z_][A-Za-z0-9_]*$";

const ENTRY: SchemaNode = {
  type: "object",
  description: "One environment: a project, on its host, with its key, variables and secrets.",
  additionalProperties: false,
  required: ["project"],
  properties: {
    project: { type: "integer", minimum: 1, description: "The environment's project id." },
    host: {
      type: "string",
      pattern: "^https?://",
      "x-expect": "a URL such as https://eu.posthog.com",
      description: "The service's URL. Default: POSTHOG_HOST, else https://us.posthog.com.",
    },
    api_key_env: {
      type: "string",
      pattern: VARIABLE_NAME,
      "x-expect": "an environment variable's name",
      description:
        "The environment variable that holds this environment's personal API key. Default: POSTHOG_API_KEY. When named and unset, the environment is not planned (never another key).",
    },
    promote_from: {
      type: "string",
      pattern: ENVIRONMENT_NAME,
      "x-expect": "an environment's name",
      description: "The environment changes come from: the order of promotion and of `apply --all`.",
    },
    protect: {
      type: "boolean",
      description:
        "Destructive actions (deletes, prunes, pauses, collaborator removals, disabling a live flag) need --allow-destructive, also with --auto-approve.",
    },
    limits: {
      type: "object",
      description: "A plan with more actions or destructive actions than these is refused unless --force.",
      additionalProperties: false,
      properties: {
        changes: { type: "integer", minimum: 0, description: "Most actions one apply may make." },
        deletes: { type: "integer", minimum: 0, description: "Most destructive actions one apply may make." },
      },
    },
    variables: {
      type: "object",
      description:
        "What ${NAME} gives in non-secret values of the files serving this environment; a value that is exactly ${NAME} takes the variable's type.",
      propertyNames: { pattern: VARIABLE_NAME },
      additionalProperties: { type: ["string", "number", "boolean"] },
    },
    secrets: {
      type: "object",
      description:
        "NAME: VARIABLE — the environment variable a secret reference ${NAME} reads in this environment (default: NAME itself).",
      propertyNames: { pattern: VARIABLE_NAME },
      additionalProperties: {
        type: "string",
        pattern: VARIABLE_NAME,
        "x-expect": "an environment variable's name",
      },
    },
  },
};

/** The file's top-level `environments:` and `overlay:`. */
export function environmentKeys(): Record<string, SchemaNode> {
  return {
    environments: {
      description:
        "In one file, the environments this set of files serves (a mapping of name: entry); in a shared file, which of them it serves: all, or a list of names (instead of project:).",
      type: ["string", "array", "object"],
      if: { type: "string" },
      then: { type: "string", const: "all" },
      else: {
        if: { type: "array" },
        then: {
          type: "array",
          minItems: 1,
          uniqueItems: true,
          items: { type: "string", pattern: ENVIRONMENT_NAME, "x-expect": NAME_WORDS },
        },
        else: {
          type: "object",
          propertyNames: { pattern: ENVIRONMENT_NAME },
          additionalProperties: ENTRY,
        },
      },
    },
    overlay: {
      type: "string",
      pattern: ENVIRONMENT_NAME,
      "x-expect": NAME_WORDS,
      description:
        "This file is the overlay of one environment: what differs there from the shared files, merged into their declarations by identity.",
    },
  };
}
