/**
 * Validates emulator responses against the OpenAPI subset (test/fixtures/openapi-subset.json, a copy of the reference's) with ajv.
 * OpenAPI 3.0 component schemas are converted to JSON Schema: `nullable` becomes a union with null,
 * `writeOnly` properties leave `required` (responses never carry them), `$ref`s stay inside one root.
 * The schema's known mistakes (end of service-api.md) are corrected explicitly in KNOWN_MISTAKES.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (typeof node !== "object" || node === null) return node;
  const { nullable, example: _example, readOnly: _ro, writeOnly: _wo, ...rest } = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(rest)) {
    if (k === "properties") {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, convert(s)]));
    } else out[k] = convert(v);
  }
  if (Array.isArray(out.required) && typeof rest.properties === "object") {
    const props = rest.properties as Record<string, Json>;
    out.required = (out.required as string[]).filter((name) => props[name]?.writeOnly !== true);
  }
  return nullable === true ? { anyOf: [out, { type: "null" }] } : out;
}

function newestBatchExport(s: Json): void {
  const props = s.properties as Json;
  props.hogql_query = { anyOf: [{ type: "string" }, { type: "null" }] };
  const model = props.model as Json;
  const inner = (model.anyOf as Json[] | undefined)?.[0] ?? model;
  inner.enum = [...(inner.enum as unknown[]), "hogql"];
}

/**
 * Corrections to the published schema, each a behaviour of the real service (service-api.md §9 and
 * the sections cited).
 */
const KNOWN_MISTAKES: Record<string, (s: Json) => void> = {
  // §3: an unsaved sharing configuration has created_at null; share_passwords is a list.
  SharingConfiguration: (s) => {
    const props = s.properties as Json;
    props.created_at = { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] };
    props.share_passwords = { type: "array" };
  },
  // §5: event properties are an object, person is null or an object, elements is a list.
  ClickhouseEvent: (s) => {
    const props = s.properties as Json;
    props.properties = { type: "object" };
    props.person = { anyOf: [{ type: "object" }, { type: "null" }] };
    props.elements = { type: "array" };
  },
  // §4: backfill progress is an object or null, not a string.
  BatchExportBackfill: (s) => {
    (s.properties as Json).progress = { anyOf: [{ type: "object" }, { type: "null" }] };
  },
  // §4: AzureBlob is a destination type of the service's model choices, missing from the published enum.
  // §0: the newest choices (migration 0010, after the Nov-2025 schema) add AwsS3, S3Compatible and
  // list Workflows and FileDownload; legacy S3 stays in the enum for exports read under the 2025 rules.
  BatchExportDestinationTypeEnum: (s) => {
    s.enum = [...(s.enum as string[]), "AzureBlob", "AwsS3", "S3Compatible", "Workflows", "FileDownload"];
  },
  // §0/§4: the newest serializer declares hogql_query with allow_null (null when there is none) and
  // adds the model `hogql`; the published schema predates both.
  BatchExport: (s) => newestBatchExport(s),
  PatchedBatchExport: (s) => newestBatchExport(s),
  // §4: "every 15 minutes" is a model choice missing from the published enum.
  IntervalEnum: (s) => {
    s.enum = [...(s.enum as string[]), "every 15 minutes"];
  },
};

const spec = JSON.parse(readFileSync(new URL("./fixtures/openapi-subset.json", import.meta.url), "utf8"));
const schemas: Json = {};
for (const [name, schema] of Object.entries(spec.components.schemas as Json)) {
  const converted = convert(schema) as Json;
  KNOWN_MISTAKES[name]?.(converted);
  schemas[name] = converted;
}

const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema({ $id: "openapi", components: { schemas } });

/** Returns the validation errors of `value` against a component schema (empty when valid). */
export function schemaErrors(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`openapi#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Schemas for the bodies the published schema gets wrong or leaves out (service-api.md §4, §9). */
export const EXTRA_SCHEMAS = {
  backfillCreated: {
    type: "object",
    required: ["backfill_id"],
    properties: { backfill_id: { type: "string", format: "uuid" } },
    additionalProperties: false,
  },
  paused: {
    type: "object",
    required: ["paused"],
    properties: { paused: { type: "boolean" } },
    additionalProperties: false,
  },
  logEntry: {
    type: "object",
    required: ["log_source_id", "instance_id", "timestamp", "level", "message"],
    properties: {
      level: { enum: ["DEBUG", "LOG", "INFO", "WARNING", "ERROR"] },
      timestamp: { type: "string", format: "date-time" },
    },
  },
} as const;

export function extraErrors(name: keyof typeof EXTRA_SCHEMAS, value: unknown): string[] {
  const validate = ajv.compile(EXTRA_SCHEMAS[name]);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
