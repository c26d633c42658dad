/** Types of fidelity-lib.mjs (plain JavaScript, so `npm run fidelity` needs no build). */
export type CaseKind = "passing" | "failing" | "newer" | "diverges" | "skipped" | "notPorted";

export interface Classified {
  base: string;
  path: string | null;
  kind: CaseKind;
  note: string | null;
  marker: string | null;
  mismatch: boolean;
}

export interface VitestJson {
  testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string }> }>;
}

export interface Row {
  path: string;
  revisions: Set<string>;
  cases: number;
  ported: number;
  passing: number;
  failing: number;
  newer: Array<{ test: string; note: string | null }>;
  diverges: Array<{ test: string; note: string | null }>;
  skipped: Map<string, number>;
  notPorted: Map<string, number>;
}

export interface Totals {
  files: number;
  cases: number;
  ported: number;
  passing: number;
  failing: number;
  newer: number;
  diverges: number;
  skipped: number;
  notPorted: number;
}

export interface Report {
  rows: Row[];
  totals: Totals;
  problems: string[];
}

export function classify(title: string, status: string): Classified;
export function tally(
  results: VitestJson,
  revisionOf?: (testFile: string, path: string) => string | null,
): Report;
export function percent(part: number, whole: number): number;
export function belowGoal(rows: Row[], goal: number): Row[];
export function renderMarkdown(report: Pick<Report, "rows" | "totals">): string;
export function toJson(report: Report): unknown;
export function headerRevision(source: string): string | null;
export function replaceBetweenMarkers(text: string, report: string): string;
