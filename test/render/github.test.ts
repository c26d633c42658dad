import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/config/types.js";
import {
  annotation,
  diagnosticAnnotations,
  escapeData,
  escapeProperty,
  planAnnotations,
} from "../../src/render/github.js";
import { act, at, batchExport, buildPlan, dashboard, mixedPlan, VOCAB } from "./fixtures.js";

/** The runner's own unescaping for `::` commands, to prove the round trip. */
function unescapeProperty(text: string): string {
  return text
    .replaceAll("%0D", "\r")
    .replaceAll("%0A", "\n")
    .replaceAll("%3A", ":")
    .replaceAll("%2C", ",")
    .replaceAll("%25", "%");
}
function unescapeData(text: string): string {
  return text.replaceAll("%0D", "\r").replaceAll("%0A", "\n").replaceAll("%25", "%");
}

/** Parses one command line the way the runner does: properties split on `,`, data after the second `::`. */
function parse(line: string): { level: string; props: Record<string, string>; data: string } {
  const end = line.indexOf("::", 2);
  const info = line.slice(2, end);
  const space = info.indexOf(" ");
  const level = space < 0 ? info : info.slice(0, space);
  const props: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info.slice(space + 1).split(",")) {
      const eq = pair.indexOf("=");
      props[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
  }
  return { level, props, data: unescapeData(line.slice(end + 2)) };
}

describe("annotation escaping", () => {
  it("escapes data: % first, then CR and LF", () => {
    expect(escapeData("100% done\r\nnext %0A")).toBe("100%25 done%0D%0Anext %250A");
  });

  it("escapes properties: also : and , but leaves ; alone (the runner does not unescape %3B)", () => {
    expect(escapeProperty("a:b,c;d%\n")).toBe("a%3Ab%2Cc;d%25%0A");
  });

  it("round-trips hostile file names and messages through the runner's parser", () => {
    const file = "dash,boards/we:ird%2C name;\r\n.yaml";
    const message = "line one\nline two: 50%, done %0A ::error::not a command";
    const line = annotation("error", { file, line: 3, col: 7 }, message);
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\r\n]/);
    const parsed = parse(line.slice(0, -1));
    expect(parsed).toEqual({ level: "error", props: { file, line: "3", col: "7" }, data: message });
  });

  it("leaves out a line or column that is missing or not a positive integer", () => {
    expect(annotation("warning", { file: "a.yaml" }, "m")).toBe("::warning file=a.yaml::m\n");
    expect(annotation("notice", { file: "a.yaml", line: 0, col: 2 }, "m")).toBe("::notice file=a.yaml::m\n");
    expect(annotation("notice", { file: "a.yaml", line: 2 }, "m")).toBe("::notice file=a.yaml,line=2::m\n");
    expect(annotation("error", { file: "" }, "m")).toBe("::error::m\n");
  });
});

describe("diagnosticAnnotations", () => {
  it("maps severities to levels, one newline-terminated line each, in order", () => {
    const diagnostics: Diagnostic[] = [
      { severity: "error", file: "d.yaml", line: 4, column: 5, message: "unknown key `colour`" },
      { severity: "warning", file: "d.yaml", line: 9, column: 1, message: "tag: duplicate" },
      { severity: "note", file: "e.yaml", line: 1, column: 1, message: "fine" },
    ];
    expect(diagnosticAnnotations(diagnostics)).toBe(
      "::error file=d.yaml,line=4,col=5::unknown key `colour`\n" +
        "::warning file=d.yaml,line=9,col=1::tag: duplicate\n" +
        "::notice file=e.yaml,line=1,col=1::fine\n",
    );
    expect(diagnosticAnnotations([])).toBe("");
  });
});

describe("planAnnotations", () => {
  it("puts one notice per changing object on its line and a warning on destructive ones", () => {
    const lines = planAnnotations(mixedPlan(), VOCAB).split("\n").filter(Boolean).map(parse);
    const kpis = lines.find((l) => l.props.file === "dashboards/kpis.yaml");
    expect(kpis?.level).toBe("warning"); // it loses a collaborator
    expect(kpis?.props).toEqual({ file: "dashboards/kpis.yaml", line: "4", col: "3" });
    expect(kpis?.data).toContain("remove collaborator 0190f3a2-7c1d-7000-8000-000000000002");
    expect(lines.find((l) => l.props.file === "dashboards/revenue.yaml")?.level).toBe("notice");
    expect(lines.find((l) => l.props.file === "exports/legacy.yaml")?.level).toBe("warning");
    expect(lines.find((l) => l.props.file === "dashboards/board.yaml")?.data).toContain("loses access");
    expect(lines.filter((l) => l.props.file === "dashboards/kpis.yaml")).toHaveLength(1);
  });

  it("skips actions whose object no file declares", () => {
    const plan = buildPlan([
      act("soft_delete", dashboard("Pruned", { id: 9 }), { before: {} }),
      act("delete", batchExport("Gone", at("x.yaml", 2)), { before: {} }),
    ]);
    expect(planAnnotations(plan, VOCAB)).toBe(
      '::warning file=x.yaml,line=2,col=3::posthog-gitops plan: batch export "Gone" in project 12345%0A- delete\n',
    );
  });

  it("is empty for an empty plan", () => {
    expect(planAnnotations(buildPlan([]), VOCAB)).toBe("");
  });
});

describe("annotation paths", () => {
  it("maps file paths through the caller's mapping (repository-relative in a sub-folder step)", () => {
    const toRoot = (file: string) => `sub/${file}`;
    const diagnostics = [
      { severity: "error" as const, file: "posthog/a.yaml", line: 3, column: 5, message: "bad" },
    ];
    expect(diagnosticAnnotations(diagnostics, toRoot)).toBe(
      "::error file=sub/posthog/a.yaml,line=3,col=5::bad\n",
    );
  });
});
