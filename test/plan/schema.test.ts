import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import {
  desiredBatchExport,
  desiredCollaborator,
  desiredDashboard,
  liveBatchExport,
  liveCollaborator,
  liveDashboard,
} from "../builders.js";
import { planOne } from "./helpers.js";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validate = ajv.compile(schema);

describe("plan JSON", () => {
  it("follows schemas/plan.schema.json for every action kind", () => {
    const uuid = "0190f1d2-7b4e-7c3a-9d1f-2a6b8c4e5f01";
    const { plan } = planOne(
      {
        dashboards: [
          desiredDashboard({
            name: "new",
            tags: ["x"],
            collaborators: [desiredCollaborator(uuid)],
            sharing: { enabled: true },
          }),
          desiredDashboard({ name: "restored", id: 99, description: "d" }),
          desiredDashboard({ name: "gone", deleted: true }),
          desiredDashboard({
            name: "shared",
            restriction_level: 37,
            collaborators: [],
            sharing: { enabled: false },
          }),
        ],
        batchExports: [
          desiredBatchExport({ name: "p", paused: true, interval: "day" }),
          desiredBatchExport({ name: "u", paused: false }),
          desiredBatchExport({ name: "x", deleted: true }),
          desiredBatchExport({ name: "n" }),
        ],
      },
      {
        dashboards: [
          liveDashboard({ id: 1, name: "gone" }),
          liveDashboard({ id: 2, name: "shared", restriction_level: 37, is_shared: true }),
          liveDashboard({ id: 3, name: "stray" }),
        ],
        collaborators: { 2: [liveCollaborator(2, uuid)] },
        batchExports: [
          liveBatchExport({ name: "p" }),
          liveBatchExport({ name: "u", paused: true, last_paused_at: "2026-02-01T00:00:00Z" }),
          liveBatchExport({ name: "x" }),
        ],
      },
      { prune: true },
    );
    const kinds = new Set(plan.actions.map((a) => a.action));
    expect(kinds.size).toBe(11);
    const json = JSON.parse(JSON.stringify(plan));
    expect(validate(json), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});
