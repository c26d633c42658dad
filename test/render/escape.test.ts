import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { annotation } from "../../src/render/github.js";
import { codeBlock, codeSpan, escapeInline } from "../../src/render/markdown-escape.js";
import { visible } from "../../src/text.js";

const hostile = fc.string({
  unit: fc.constantFrom(..."<>&|`*_[]\\~\n\r%:,;= a\u001b\u2028é"),
  maxLength: 40,
});

describe("escaping, for any input", () => {
  it("escapeInline leaves no markdown or HTML syntax and no line break", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(escapeInline(text)).not.toMatch(/[<>`|*_[\]\\~\n\r\u001b]|&(?!(amp|lt|gt|#\d+);)/);
      }),
      { numRuns: 300 },
    );
  });

  it("escapeInline lets no service text mention, reference, link or reorder, and reads as the text did", () => {
    const active = fc.string({
      unit: fc.constantFrom(..."@#:/w.GH-1a_ \u202e\u2066\u200b&;<"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(active, (text) => {
        const out = escapeInline(text);
        expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
        // What GitHub reads (character references decoded). Its mentions (@user, @org/team),
        // references (#1, owner/repo#1, GH-1) and autolinks (scheme://, www.) need these characters
        // side by side: a zero-width space stands between them.
        const read = out
          .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
          .replace(/&(amp|lt|gt);/g, (_, e) => ({ amp: "&", lt: "<", gt: ">" })[e as "amp"]);
        expect(read).not.toMatch(/@[A-Za-z0-9]|#\d|GH-\d|:\/\/|www\./i);
        // And apart from it, the reader reads the text (control characters shown as escapes).
        expect(read.replace(/\u200b/g, "")).toBe(visible(text));
      }),
      { numRuns: 300 },
    );
    expect(escapeInline("ping @acme/admins, see https://evil.example #12 and acme/site#3")).toBe(
      "ping @&#8203;acme/admins, see https:&#8203;//evil.example #&#8203;12 and acme/site#&#8203;3",
    );
  });

  it("codeSpan holds its text literally between equal fences that no inner run matches", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const span = codeSpan(text);
        const fence = span.match(/^`+/)?.[0] ?? "";
        expect(span.endsWith(fence)).toBe(true);
        const inner = span.slice(fence.length, span.length - fence.length);
        expect(inner).not.toContain(fence);
        expect(inner).not.toMatch(/[\n\r\u001b]/);
      }),
      { numRuns: 300 },
    );
  });

  it("codeBlock's fence is never closed early by its content", () => {
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 5 }), (lines) => {
        const block = codeBlock(
          "diff",
          lines.map((l) => l.replace(/[\r\n]/g, "")),
        );
        const fence = block.match(/^`+/)?.[0] ?? "";
        const body = block.split("\n").slice(1, -1);
        for (const line of body) expect(line.startsWith(fence)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("an annotation is always one line with exactly one data separator after the properties", () => {
    fc.assert(
      fc.property(hostile, hostile, (file, message) => {
        const line = annotation("warning", { file, line: 2 }, message);
        expect(line.slice(0, -1)).not.toMatch(/[\r\n]/);
        const head = line.slice(0, line.indexOf("::", 2));
        expect(head.split(",").length).toBe(file === "" ? 1 : 2);
      }),
      { numRuns: 300 },
    );
  });
});
