/**
 * The direct YAML path (tokens → data, parse-fast.ts) must be indistinguishable from the reference
 * path (the `yaml` library's Composer, parse-slow.ts): wherever it answers, the data deep-equals the
 * reference's, the reference reports nothing, and every pointer is placed at the same offset and
 * line/column. Checked on the golden inputs, the examples, documents shaped like the benchmark's, and
 * generated hostile documents; plus the scalars and shapes where a restatement could drift from the
 * library (core schema values, empty values, comments, flow collections, keys).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Diagnostics } from "../../src/config/diagnostics.js";
import { parseBy, parseYaml } from "../../src/config/parse.js";
import { composeFile } from "../../src/config/parse-slow.js";
import { aliasBomb, deepNesting, mutated, nearValid } from "../fuzz/arbitraries.js";
import { benchLike, cleanDoc, pointers, yamlMutated } from "./yaml-docs.js";

// The same function, observed: a clean file must never need the document tree.
vi.mock("../../src/config/parse-slow.js", async (original) => {
  const actual = await original<typeof import("../../src/config/parse-slow.js")>();
  return { ...actual, composeFile: vi.fn(actual.composeFile) };
});

const parseFast = (path: string, text: string) => parseBy("direct", path, text, new Diagnostics());
const parseSlow = (path: string, text: string, diags: Diagnostics) => parseBy("composed", path, text, diags);

const RUNS = Number(process.env.FUZZ_RUNS ?? "300");
const repo = join(import.meta.dirname, "../..");

function yamlFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(folder, f))
    .sort();
}

/** Whether the fast path answered; when it did, it agreed with the slow path in every respect. */
function agrees(text: string): boolean {
  const fast = parseFast("f.yaml", text);
  if (fast === undefined) return false;
  const diags = new Diagnostics();
  const slow = parseSlow("f.yaml", text, diags);
  expect(diags.list).toEqual([]);
  expect(slow).toBeDefined();
  expect(fast.data).toEqual(slow!.data);
  for (const pointer of pointers(slow!.data)) {
    const want = slow!.place(pointer);
    const got = fast.place(pointer);
    expect({ pointer, place: got && { key: got.key, value: got.value } }).toEqual({
      pointer,
      place: want && { key: want.key, value: want.value },
    });
    if (want !== undefined) expect(fast.position(want.value)).toEqual(slow!.position(want.value));
  }
  for (const missing of ["/nope", "/dashboards/99", "/dashboards/x"]) {
    expect(fast.place(missing)).toEqual(slow!.place(missing));
  }
  return true;
}

describe("direct YAML path", () => {
  it("agrees with the slow path on the golden inputs and examples, and takes the examples", () => {
    const golden = yamlFiles(join(repo, "test/golden/config"));
    // The examples, and the single-project configurations the examples were before environments.
    const examples = [
      ...yamlFiles(join(repo, "examples")),
      ...yamlFiles(join(repo, "test/fixtures/single-project")),
    ];
    // Exact figures: a golden input or example lost, or a file the direct path stops taking, fails here.
    expect({ golden: golden.length, examples: examples.length }).toEqual({ golden: 62, examples: 21 });
    let fast = 0;
    for (const file of [...golden, ...examples]) if (agrees(readFileSync(file, "utf8"))) fast += 1;
    for (const file of examples) {
      expect(parseFast(file, readFileSync(file, "utf8")), file).toBeDefined();
    }
    // All 21 examples (with the promote workflow, cohorts and actions) and 51 of the 62 golden inputs; the other 11 (aliases, deep nesting, a BOM,
    // duplicate or forbidden keys, empty files, several documents, syntax errors) take the composed path.
    expect(fast).toBe(72);
  });

  it("agrees on benchmark-shaped files, including odd item layouts and comments", () => {
    expect(agrees(benchLike(30))).toBe(true);
    const file = parseFast("f.yaml", benchLike(1))!;
    const text = benchLike(1);
    const at = (p: string) => text.slice(file.place(p)!.value).split("\n")[0];
    expect(at("/batch_exports/0")).toBe("name: spaced");
    expect(at("/batch_exports/1")).toBe("name: on-next-line");
    expect(at("/batch_exports/1/destination")).toBe("type: S3");
    expect(at("/dashboards/0/tags")).toBe("[Growth, kpi, team-0]");
  });

  it("loads and places every node of a clean file without composing a document tree", () => {
    const text = benchLike(20);
    vi.mocked(composeFile).mockClear();
    const file = parseYaml("f.yaml", text, new Diagnostics())!;
    for (const pointer of pointers(file.data)) expect(file.place(pointer), pointer).toBeDefined();
    expect(file.place("/dashboards/0/nope")).toBeUndefined();
    expect(composeFile).not.toHaveBeenCalled();
    parseYaml("f.yaml", "a: &x 1\nb: *x\n", new Diagnostics());
    expect(composeFile).toHaveBeenCalledTimes(1);
  });

  it("agrees on generated documents (or leaves them to the slow path)", () => {
    const examples = [
      ...yamlFiles(join(repo, "examples")),
      ...yamlFiles(join(repo, "test/golden/config")),
    ].map((f) => readFileSync(f, "utf8"));
    const docs = fc.oneof(
      { weight: 5, arbitrary: nearValid },
      { weight: 1, arbitrary: aliasBomb },
      { weight: 1, arbitrary: deepNesting },
      { weight: 3, arbitrary: fc.constantFrom(...examples).chain(mutated) },
    );
    let fast = 0;
    fc.assert(
      fc.property(docs, (text) => {
        if (agrees(text)) fast += 1;
      }),
      { numRuns: RUNS },
    );
    expect(fast).toBeGreaterThan(RUNS / 20);
  });

  it("agrees on generated clean documents in mixed styles, and answers for most of them", () => {
    let fast = 0;
    fc.assert(
      fc.property(cleanDoc, (text) => {
        if (agrees(text)) fast += 1;
      }),
      { numRuns: RUNS },
    );
    expect(fast).toBeGreaterThan(RUNS / 2);
  });

  it("agrees on clean documents with YAML syntax inserted, deleted or re-indented", () => {
    const bases = fc.oneof(cleanDoc, fc.constant(benchLike(3)));
    let answered = 0;
    fc.assert(
      fc.property(bases.chain(yamlMutated), (text) => {
        if (agrees(text)) answered += 1;
      }),
      { numRuns: RUNS * 2 },
    );
    // Most mutations break the file; enough of them must still reach the direct path.
    expect(answered).toBeGreaterThan(RUNS / 5);
  });

  // Where a restatement of the library could drift (core schema values, empty values and their
  // places, comments, keys, flow collections): the direct path gives the reference's value and
  // place, or steps aside.
  it.each([
    "on: yes\noff: no\ny: Y",
    "a: 0o14\nb: 014\nc: 0x1F\nd: -0x1F\ne: 0b101\nf: 1_000\ng: +12\nh: -0\ni: 9007199254740993",
    "a: .inf\nb: -.Inf\nc: +.INF\nd: .nan\ne: 1e3\nf: .5\ng: 1.\nh: 1.50\ni: +1E-2\nj: 1:20",
    "a: ~\nb: null\nc: NULL\nd: Null\ne: nULL\nf:\ng: TRUE\nh: tRUE\ni: True",
    "a: 2026-01-01\nb: 2026-01-01T00:00:00Z\nc: '12'\nd: \"0x1F\"",
    "base: &base {a: 1}\nx:\n  <<: *base\n  b: 2",
    "<<: {a: 1}\nb: 2",
    "a: !!binary aGVsbG8=\nb: !!str 12\nc: !custom x\nd: ! 12",
    "~: 1\nb: 2",
    "null: 1",
    "1: a\n0x1: b",
    "? [a, b]\n: c",
    "[a]: 1",
    "{a: 1}: 2",
    "host: {{ vars.HOST }}\nb: {[x, y], c: 1}\nc: [{a: 1}, {b: [2]}, [3]]\nd: {e: {f: 1}, g: [h]}",
    "a: &x hello\nb: *x",
    "%YAML 1.2\n---\na: 1",
    "---\na: 1\n...\n",
    "---\na: 1\n---\nb: 2",
    "\uFEFFa: 1",
    "a: 1\rb: 2",
    "a:\tb",
    "a: [1,\n  2]",
    'a: |\n  line one\n  line two\nb: >-\n  folded\n  text\n\nc: "esc \\t \\u00e9 \\x41"',
    "a: plain\n  continued\n  lines",
    "a: 'it''s'\nb: \"q\\\"\"",
    "a: b: c",
    "a: 1\na: 2",
    "__proto__: {x: 1}",
    "a:\n  constructor: 1",
    `k${"x".repeat(1100)}: 1`,
    "",
    "# only a comment",
    "- a\n- b",
    "plain text",
    "a:\r\n  - x: 1\r\n  - y\r\nb: {c: [1, 2]}\r\n",
    "# leading\n--- # start\n\n# more\na:\n- x\n-  {y: 1}\n-\n  - z\n",
    "a: []\nb: {}\n\"c d\": {'e': [1, {f: 2}]}\n'g:h': \"i: j\"\n",
    "a:\n    -   b: 1\n        c: 2\n    # c\n    -\n\n        d: 3\n",
    "a: x # comment\nb: 'y' #c\nc: \"z\"  \nd: [x, y, ]\n",
    'a: "x"#c\nb: [y]#c\n',
  ])("%j", (text) => {
    agrees(text);
  });

  it("answers for the common scalars with the YAML 1.2 core values", () => {
    const file = parseFast("f.yaml", "on: yes\na: 0o14\nb: .inf\nc: ~\nd: 2026-01-01\ne: 0b101\nf: -0x1F\n");
    expect(file?.data).toEqual({
      on: "yes",
      a: 12,
      b: Number.POSITIVE_INFINITY,
      c: null,
      d: "2026-01-01",
      e: "0b101",
      f: "-0x1F",
    });
  });

  it("steps aside for anchors, aliases, tags, merge-key aliases and refused keys", () => {
    for (const text of [
      "a: &x 1\nb: *x",
      "a: !!str 1",
      "b: {a: 1}\nc:\n  <<: *b",
      "~: 1",
      "a: {__proto__: 1}",
    ]) {
      expect(parseFast("f.yaml", text), text).toBeUndefined();
    }
  });
});
