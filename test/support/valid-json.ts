/** Validation of the commands' `--format json` documents against their published JSON schemas. */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

/** Asserts `text` parses to a document valid against `schemas/<name>.schema.json`; returns it. */
// biome-ignore lint/suspicious/noExplicitAny: documents are inspected freely in tests
export function validJson(name: string, text: string): any {
  const schema = JSON.parse(
    readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), "utf8"),
  );
  const validate = ajv.getSchema(schema.title) ?? ajv.addSchema(schema, schema.title).getSchema(schema.title);
  const doc = JSON.parse(text);
  const ok = validate?.(doc);
  expect(validate?.errors ?? [], `${name} schema errors`).toEqual([]);
  expect(ok).toBe(true);
  return doc;
}
