import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { annotation } from "../../src/render/github.js";
import { codeBlock, codeSpan, escapeInline } from "../../src/render/markdown-escape.js";

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
