/**
 * Writes the published JSON Schemas from the code that defines them: schemas/config.schema.json
 * (composed from the registry's kinds, with what files serving environments may hold besides),
 * schemas/plan.schema.json, schemas/apply.schema.json, schemas/promote.schema.json (their actions from
 * the kinds' verbs), the envelopes of several environments, schemas/plan-environments.schema.json and
 * schemas/apply-environments.schema.json, and the file `plan --out` writes,
 * schemas/saved-plan.schema.json. `npm run schemas`; a test keeps the committed files equal to what
 * this writes.
 */
import { writeFileSync } from "node:fs";
import { savedPlanSchema } from "../src/apply/saved-plan.js";
import { applySchema } from "../src/apply/schema.js";
import { publishedSchema } from "../src/config/published-schema.js";
import { KINDS } from "../src/kinds/index.js";
import { planSchema } from "../src/plan/schema.js";
import { promoteSchema } from "../src/promote/schema.js";
import { applyEnvironmentsSchema, planEnvironmentsSchema } from "../src/render/environments-schema.js";

export const GENERATED: Record<string, unknown> = {
  "schemas/config.schema.json": publishedSchema(KINDS),
  "schemas/plan.schema.json": planSchema(KINDS),
  "schemas/apply.schema.json": applySchema(KINDS),
  "schemas/promote.schema.json": promoteSchema(KINDS),
  "schemas/plan-environments.schema.json": planEnvironmentsSchema(KINDS),
  "schemas/apply-environments.schema.json": applyEnvironmentsSchema(KINDS),
  "schemas/saved-plan.schema.json": savedPlanSchema(KINDS),
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
