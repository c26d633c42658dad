/**
 * The answer shapes (src/service/shapes.ts and each kind's answers.ts, listed by the registry as
 * `Kind.answers`) stay in step with the service's OpenAPI components
 * (packages/emulator/test/fixtures/openapi-subset.json): every field a shape checks exists in its component, with a
 * type the component allows, and every field a shape requires is required there too, except the
 * corrections listed here, each a behaviour of the real service (service-api.md) or a field the tool
 * needs. A new difference fails until it is either fixed or listed with its reason.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/index.js";
import { checkAnswer, itemCount } from "../../src/service/answers.js";
import { type AnswerShape, SHAPES as SERVICE_SHAPES } from "../../src/service/shapes.js";
import * as sample from "./samples.js";

type Node = Record<string, unknown>;
const spec = JSON.parse(
  readFileSync(new URL("../../packages/emulator/test/fixtures/openapi-subset.json", import.meta.url), "utf8"),
) as { components: { schemas: Record<string, Node> } };
const components = spec.components.schemas;

/** Every shape by name: the service's own and the registry's kinds'. */
const SHAPES: Record<string, AnswerShape> = Object.assign({}, SERVICE_SHAPES, ...KINDS.map((k) => k.answers));
type Shape = string;

/** Follows `$ref` and single-`allOf` wrappers to the component node. */
function resolve(node: Node): Node {
  if (typeof node.$ref === "string") return resolve(components[node.$ref.split("/").pop()!]!);
  if (Array.isArray(node.allOf) && node.allOf.length === 1) {
    const { allOf, ...rest } = node;
    return { ...resolve(allOf[0] as Node), ...rest };
  }
  return node;
}

/** JSON types a component node allows; undefined = any. */
function allowedTypes(node: Node): Set<string> | undefined {
  const n = resolve(node);
  let types: string[] | undefined;
  if (typeof n.type === "string") types = [n.type];
  else if (Array.isArray(n.enum)) types = [...new Set(n.enum.map((v) => (v === null ? "null" : typeof v)))];
  if (types === undefined) return undefined;
  const out = new Set(types.map((t) => (t === "number" && Array.isArray(n.enum) ? "integer" : t)));
  if (n.nullable === true) out.add("null");
  if (out.has("integer")) out.add("number");
  return out;
}

function shapeTypes(node: Node): string[] | undefined {
  if (Array.isArray(node.enum)) return [...new Set(node.enum.map((v) => (v === null ? "null" : typeof v)))];
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  return undefined;
}

/** Where each shape's objects live in the published schema: [path in our shape, component]. */
const PAIRS: Array<[Shape, string, string]> = [
  ["dashboardPage", "", "PaginatedDashboardBasicList"],
  ["dashboardPage", "results.items", "DashboardBasic"],
  ["dashboard", "", "Dashboard"],
  ["collaborators", "items", "DashboardCollaborator"],
  ["collaborator", "user", "UserBasic"],
  ["sharing", "", "SharingConfiguration"],
  ["batchExportPage", "", "PaginatedBatchExportList"],
  ["batchExportPage", "results.items", "BatchExport"],
  ["batchExport", "destination", "BatchExportDestination"],
  ["batchExport", "latest_runs.items", "BatchExportRun"],
  ["runPage", "", "PaginatedBatchExportRunList"],
  ["run", "", "BatchExportRun"],
  ["backfillPage", "", "PaginatedBatchExportBackfillList"],
  ["backfillPage", "results.items", "BatchExportBackfill"],
  ["eventPage", "", "PaginatedClickhouseEventList"],
  ["event", "", "ClickhouseEvent"],
];

/**
 * Deliberate differences, `Component.field` → why. `type` = a type the component does not allow;
 * `required` = required here although the component leaves it optional; `absent` = not in the component.
 */
const CORRECTIONS: Record<string, string> = {
  "type SharingConfiguration.created_at": "null until sharing is first saved (service-api.md §3)",
  "type BatchExportBackfill.progress": "an object or null, not a string (§4 Backfills)",
  "type ClickhouseEvent.properties": "an object (§5)",
  "type ClickhouseEvent.person": "null or an object (§5)",
  "type BatchExportRun.data_interval_end": "tolerated as null: runs shows it, nothing computes with it",
  "type BatchExport.hogql_query": "the emulator and older services send null or leave it out",
  "required DashboardBasic.tags": "the plan compares tags; the service always sends them ([] unlicensed)",
  "required BatchExport.paused": "the plan compares it; missing, it would plan a change forever",
  "required SharingConfiguration.enabled": "the one field the tool reads",
  "required PaginatedDashboardBasicList.next": "a page without next would silently end the list",
  "required PaginatedBatchExportList.next": "a page without next would silently end the list",
  "required PaginatedBatchExportRunList.next": "a page without next would silently end the list",
  "required PaginatedBatchExportBackfillList.next": "a page without next would silently end the list",
  "required PaginatedClickhouseEventList.next": "a page without next would silently end the list",
  "required PaginatedClickhouseEventList.results": "the list itself",
  "absent PaginatedBatchExportRunList.count": "optional; logs share the cursor-page shape and carry a count",
  "absent PaginatedBatchExportBackfillList.count": "optional, as for runs",
  "absent PaginatedClickhouseEventList.count": "optional, as for runs",
};

function at(schema: Node, path: string): Node {
  let node = schema;
  for (const part of path ? path.split(".") : []) {
    node =
      part === "items" ? (node.items as Node) : ((node.properties as Record<string, Node>)[part] as Node);
  }
  return node;
}

describe("answer shapes against the OpenAPI components", () => {
  const used = new Set<string>();
  it.each(PAIRS)("%s %s ↔ %s", (shape, path, name) => {
    const ours = at(SHAPES[shape]!.schema as Node, path);
    const theirs = resolve(components[name]!);
    const theirProps = (theirs.properties ?? {}) as Record<string, Node>;
    const problems: string[] = [];
    const note = (key: string, problem: string) => {
      if (key in CORRECTIONS) used.add(key);
      else problems.push(`${key}: ${problem}`);
    };
    for (const [field, node] of Object.entries((ours.properties ?? {}) as Record<string, Node>)) {
      const their = theirProps[field];
      if (their === undefined) {
        note(`absent ${name}.${field}`, "checked here, but not in the component");
        continue;
      }
      const allowed = allowedTypes(their);
      const mine = shapeTypes(node);
      if (allowed && mine && !mine.every((t) => allowed.has(t))) {
        note(`type ${name}.${field}`, `${mine.join("|")} here, ${[...allowed].join("|")} there`);
      }
      const theirEnum = resolve(their).enum;
      if (Array.isArray(node.enum) && Array.isArray(theirEnum)) {
        expect(
          node.enum.every((v) => theirEnum.includes(v)),
          `${name}.${field} enum`,
        ).toBe(true);
      }
    }
    const theirRequired = new Set((theirs.required ?? []) as string[]);
    for (const field of (ours.required ?? []) as string[]) {
      if (!theirRequired.has(field)) note(`required ${name}.${field}`, "required here only");
    }
    expect(problems).toEqual([]);
  });

  it("lists no correction that no longer applies", () => {
    expect(Object.keys(CORRECTIONS).filter((k) => !used.has(k))).toEqual([]);
  });
});

describe("the shapes themselves", () => {
  const valid: Record<Shape, unknown> = {
    dashboardPage: sample.offsetPage([sample.dashboard(1)]),
    dashboard: sample.dashboard(1),
    dashboardWithTiles: sample.dashboard(1, { tiles: [sample.tile(1, 7), sample.tile(2, null)] }),
    insightPage: sample.offsetPage([
      sample.insight(7, { dashboard_tiles: [{ id: 1, dashboard_id: 1, deleted: null }] }),
    ]),
    insight: sample.insight(7),
    featureFlagPage: sample.offsetPage([{ id: 1, key: "f", filters: {}, active: true, deleted: false }]),
    featureFlag: { id: 1, key: "f", filters: {}, active: true, deleted: false },
    cohortPage: sample.offsetPage([{ id: 1, name: "Beta testers", filters: null, is_static: true }]),
    cohort: { id: 1, name: null },
    actionPage: { count: 1, results: [{ id: 1, name: "Signed up", steps: [], pinned_at: null }] },
    action: { id: 1, name: "Signed up" },
    collaborators: [sample.collaborator("u")],
    collaborator: sample.collaborator("u"),
    sharing: sample.sharing,
    batchExportPage: sample.offsetPage([sample.batchExport("e", { latest_runs: [sample.run("r")] })]),
    batchExport: sample.batchExport("e"),
    runPage: sample.cursorPage([sample.run("r")]),
    run: sample.run("r"),
    backfillPage: sample.cursorPage([sample.backfill("b")]),
    logPage: sample.offsetPage([sample.logEntry(1), sample.logEntry(2)]),
    eventPage: sample.cursorPage([sample.event("x")]),
    event: sample.event("x"),
    eventValues: [{ name: "Chrome" }, { name: 3 }],
    integrationPage: sample.offsetPage([{ id: 1, kind: "aws-s3", display_name: "prod" }]),
    organization: { id: "o", available_features: ["tagging"], available_product_features: null },
    project: { id: 1, organization: "o" },
    personalApiKey: { id: "k", scopes: ["dashboard:read"], scoped_teams: [], label: null },
    groupTypes: [{ group_type: "company", group_type_index: 0, name_singular: null }],
    memberPage: { count: 1, next: null, results: [{ id: "m", user: { uuid: "u", email: "a@b.c" } }] },
    projectPage: sample.offsetPage([{ id: 1, name: "Production", organization: "o" }]),
    backfillCreated: { backfill_id: "b" },
    paused: { paused: true },
    cancelled: { cancelled: true },
  };

  it.each(Object.keys(SHAPES) as Shape[])("%s is a valid schema and accepts a minimal answer", (shape) => {
    // The client skips meta-schema validation for start-up time; this is where it happens.
    const strict = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(strict.validateSchema(SHAPES[shape]!.schema), JSON.stringify(strict.errors)).toBe(true);
    strict.compile(SHAPES[shape]!.schema);
    expect(checkAnswer(SHAPES[shape]!, valid[shape])).toBeUndefined();
    expect(checkAnswer(SHAPES[shape]!, "text")).toMatch(
      /^the answer is not (an object|a list) \(it is a string\)$/,
    );
  });

  it("counts the items of list pages only", () => {
    expect(itemCount(SHAPES.dashboardPage!, valid.dashboardPage)).toBe(1);
    expect(itemCount(SHAPES.logPage!, valid.logPage)).toBe(2);
    expect(itemCount(SHAPES.collaborators!, [1, 2, 3])).toBe(3);
    expect(itemCount(SHAPES.dashboard!, valid.dashboard)).toBeUndefined();
  });
});
