/**
 * Hostile input: every case ends in diagnostics, never an exception, a hang or a polluted prototype.
 * (The golden suite pins the exact messages; this checks the properties that matter for safety.)
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../src/config/diagnostics.js";
import { parseYaml } from "../../src/config/parse.js";
import { loadConfig } from "../../src/index.js";
import { tree } from "./helpers.js";

const load = (cwd: string, paths: string[]) =>
  loadConfig(paths, { env: {}, cwd, mode: "apply", defaultProject: 1 });

describe("hostile input", () => {
  it("refuses files over 5 MB before reading them", async () => {
    const root = tree({ "big.yaml": `project: 1\n# ${"x".repeat(5 * 1024 * 1024)}\n` });
    const result = await load(root, ["big.yaml"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]!.message).toMatch(/^file is larger than 5 MB/);
  });

  it("refuses deep flow nesting that would exhaust the parser's stack", async () => {
    const root = tree({ "deep.yaml": `project: 1\nx: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n` });
    const result = await load(root, ["deep.yaml"]);
    expect(result.diagnostics.map((d) => d.message)).toEqual(["nesting deeper than 64 levels"]);
  });

  it("refuses deep nesting with one error however often it has been parsed (the parser warmed up)", () => {
    // Whether a recursive parser overflows at a given depth depends on its frames' size, which
    // changes once the engine optimises it: the refusal must not.
    const text = `project: 1\nx: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n`;
    for (let i = 0; i < 8; i++) {
      const diags = new Diagnostics();
      expect(parseYaml("deep.yaml", text, diags)).toBeUndefined();
      expect(diags.list.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
        "2:68 nesting deeper than 64 levels",
      ]);
    }
  });

  it("reads 64 levels of nesting and refuses 65, at the first value too deep", () => {
    const nested = (n: number) => `project: 1\nx: ${"[".repeat(n)}1${"]".repeat(n)}\n`;
    const ok = new Diagnostics();
    expect(parseYaml("ok.yaml", nested(63), ok)).toBeDefined();
    expect(ok.list).toEqual([]);
    const deep = new Diagnostics();
    expect(parseYaml("deep.yaml", nested(65), deep)).toBeUndefined();
    expect(deep.list.map((d) => d.message)).toEqual(["nesting deeper than 64 levels"]);
  });

  it("refuses an alias bomb quickly", async () => {
    const levels = ["a: &a [x,x,x,x,x,x,x,x,x]"];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(",")}]`,
      );
    }
    const root = tree({ "bomb.yaml": `${levels.join("\n")}\n` });
    // 9^12 nodes if expanded: only a bounded refusal finishes within the test's timeout.
    const result = await load(root, ["bomb.yaml"]);
    expect(result.diagnostics[0]!.message).toMatch(/alias/);
  }, 10_000);

  it("refuses an alias bomb by the size of its output: a few aliases to a huge string", async () => {
    // 12 aliases (far below the alias count limit) to a 1 MB string: 12 MB of text once expanded.
    const aliases = Array(12).fill("*big").join(", ");
    const root = tree({
      "bomb.yaml": `project: 1\nbig: &big "${"x".repeat(1024 * 1024)}"\nlist: [${aliases}]\n`,
    });
    const result = await load(root, ["bomb.yaml"]);
    // The 9th expansion crosses 10 MB (the anchored string counts once itself): the error points at
    // that alias, on line 3.
    expect(result.diagnostics).toEqual([
      {
        severity: "error",
        file: "bomb.yaml",
        line: 3,
        column: 8 + 6 * 8,
        message: "document expands to too much text (an alias bomb?)",
      },
    ]);
  }, 20_000);

  it("refuses an alias bomb by the number of values it expands to", async () => {
    // 40 aliases to a list of 30,000 numbers: 1.2 million values.
    const numbers = Array.from({ length: 30_000 }, (_, i) => i).join(",");
    const aliases = Array(40).fill("*n").join(",");
    const root = tree({ "bomb.yaml": `project: 1\nn: &n [${numbers}]\nx: [${aliases}]\n` });
    const result = await load(root, ["bomb.yaml"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      line: 3,
      message: "document expands to too many values (an alias bomb?)",
    });
  }, 20_000);

  it("stops parsing a file dense with tokens partway, before it costs gigabytes", async () => {
    // Under 5 MB, but 7.5 million tokens: the parser would need about 2 GB for it.
    const root = tree({ "dense.yaml": `project: 1\nx: [${"1,".repeat(2_400_000)}1]\n` });
    const result = await load(root, ["dense.yaml"]);
    expect(result.diagnostics.map((d) => `${d.line}:${d.message}`)).toEqual([
      "2:file holds more than 1.5 million YAML tokens (keys, values, indicators, line breaks): split it into smaller files",
    ]);
  }, 30_000);

  it("refuses a mapping of 100,000 keys without composing it (the library checks keys pairwise)", async () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `  k${i}: v`).join("\n");
    // The anchor sends the file to the Composer, where 100,000 keys would take minutes.
    const root = tree({ "wide.yaml": `project: &p 1\nx:\n${keys}\n` });
    const result = await load(root, ["wide.yaml"]);
    expect(result.diagnostics).toEqual([
      {
        severity: "error",
        file: "wide.yaml",
        line: 3,
        column: 3,
        message: "a mapping with more than 1000 keys is not read",
      },
    ]);
  }, 30_000);

  it("quotes at most a cut line of a file made of one huge line", async () => {
    const line = `project: 1\n]${"a".repeat(4 * 1024 * 1024)}`;
    const root = tree({ "long.yaml": `${line}\n`, "tag.yaml": `x: !${"t".repeat(100_000)} 1\n` });
    const result = await load(root, ["long.yaml", "tag.yaml"]);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    for (const d of result.diagnostics) {
      expect(d.line).toBeGreaterThan(0);
      expect(d.message.length, d.message.slice(0, 200)).toBeLessThanOrEqual(160);
    }
    expect(result.diagnostics.map((d) => d.message).join("\n")).toMatch(/aaaa…/);
  }, 20_000);

  it("never lets __proto__, constructor or prototype reach an object", async () => {
    const root = tree({
      "a.yaml": "project: 1\n__proto__: {polluted: true}\n",
      "b.yaml": 'project: 1\ndashboards:\n  - name: x\n    "__proto__": {polluted: true}\n',
      "c.yaml":
        "project: 1\nbatch_exports:\n  - name: x\n    destination:\n      type: NoOp\n      config: {constructor: {prototype: {polluted: true}}}\n",
      "d.yaml": '{"project": 1, "__proto__": {"polluted": true}}\n',
    });
    const result = await load(root, ["."]);
    expect(result.diagnostics.map((d) => `${d.file}:${d.message}`)).toEqual([
      'a.yaml:key "__proto__" is not allowed',
      'b.yaml:key "__proto__" is not allowed',
      'c.yaml:key "constructor" is not allowed',
      'd.yaml:key "__proto__" is not allowed',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
  });

  it("reports the line of the first byte that is not UTF-8", async () => {
    const bytes = new Uint8Array([...Buffer.from("project: 1\nx: ok\ny: "), 0xff, 0x0a]);
    const root = tree({ "bad.yaml": bytes });
    const result = await load(root, ["bad.yaml"]);
    expect(result.diagnostics).toEqual([
      { severity: "error", file: "bad.yaml", line: 3, column: 4, message: "file is not valid UTF-8 text" },
    ]);
  });

  it("refuses an empty file, a folder without YAML and a missing path", async () => {
    const root = tree({ "empty.yaml": "", "docs/readme.md": "hi" });
    const result = await load(root, ["empty.yaml", "docs", "missing"]);
    expect(result.diagnostics.map((d) => d.file)).toEqual(["docs", "empty.yaml", "missing"]);
    expect(result.projects).toEqual([]);
  });

  it("never throws on random YAML-ish text", () => {
    const alphabet = fc.constantFrom(
      ..."abc: -[]{}&*!|>'\"#%@`\n  \t,?0123.~$_".split(""),
      "project: ",
      "dashboards:\n  - name: ",
      "batch_exports:\n  - name: e\n    destination: {type: S3, config: {",
      "__proto__",
      "${X}",
      "&a ",
      "*a",
      "\n    ",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), (parts) => {
        const diags = new Diagnostics();
        expect(() => parseYaml("x.yaml", parts.join(""), diags)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it("never throws out of loadConfig on random text either", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        const root = tree({ "r.yaml": `project: 1\ndashboards:\n  - name: ${text}\n` });
        const result = await load(root, ["r.yaml"]);
        expect(Array.isArray(result.diagnostics)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
