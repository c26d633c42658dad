/**
 * Writes the published JSON Schemas from the code that defines them: schemas/config.schema.json
 * (composed from the registry's kinds), schemas/plan.schema.json, schemas/apply.schema.json and
 * schemas/promote.schema.json (their actions from the kinds' verbs). `npm run schemas`; a test keeps the committed files equal to what
 * this writes.
 */
import { writeFileSync } from "node:fs";
import { applySchema } from "../src/apply/schema.js";
import { composeSchema } from "../src/config/schema.js";
import { KINDS } from "../src/kinds/index.js";
import { planSchema } from "../src/plan/schema.js";
import { promoteSchema } from "../src/promote/schema.js";

export const GENERATED: Record<string, unknown> = {
  "schemas/config.schema.json": composeSchema(KINDS),
  "schemas/plan.schema.json": planSchema(KINDS),
  "schemas/apply.schema.json": applySchema(KINDS),
  "schemas/promote.schema.json": promoteSchema(KINDS),
};

export function schemaText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

if (process.argv[1]?.endsWith("write-schemas.ts")) {
  for (const [path, schema] of Object.entries(GENERATED)) {
    writeFileSync(new URL(`../${path}`, import.meta.url), schemaText(schema));
    console.log(`wrote ${path}`);
  }
}
