import { describe, expect, it } from "vitest";
import { painter, renderTable } from "../../src/render/table.js";
import { ago } from "../../src/time.js";

describe("tables", () => {
  it("pads columns by the width a terminal gives them: wide characters count twice", () => {
    const out = renderTable(
      ["NAME", "N"],
      [
        ["東京ダッシュ", "1"],
        ["Paris", "2"],
      ],
      painter(false),
    );
    expect(out.split("\n")).toEqual(["NAME          N", "東京ダッシュ  1", "Paris         2", ""]);
  });

  it("keeps colour codes out of the width", () => {
    const out = renderTable(["A", "B"], [[{ text: "ok", style: "green" }, "x"]], painter(true));
    expect(out).toContain("\u001b[32mok\u001b[39m  x");
  });
});

describe("relative times", () => {
  const now = new Date("2026-11-20T12:00:00Z");
  it("reads like a person: the largest unit that fits, past and future", () => {
    expect(ago("2026-11-20T11:59:58Z", now)).toBe("2s ago");
    expect(ago("2026-11-20T12:00:00Z", now)).toBe("0s ago");
    expect(ago("2026-11-20T11:03:00Z", now)).toBe("57m ago");
    expect(ago("2026-11-19T02:00:00Z", now)).toBe("34h ago");
    expect(ago("2026-11-17T12:00:00Z", now)).toBe("3d ago");
    expect(ago("2026-11-20T12:04:00Z", now)).toBe("in 4m");
    expect(ago(null, now)).toBe("-");
    expect(ago("not a time", now)).toBe("not a time");
  });
});
