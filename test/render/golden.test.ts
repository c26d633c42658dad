/**
 * Golden files guard the bytes users see. `UPDATE_GOLDEN=1 npx vitest run test/render` rewrites them;
 * review the diff before committing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/index.js";
import type { Plan } from "../../src/plan/types.js";
import { planAnnotations } from "../../src/render/github.js";
import { renderPlan } from "../../src/render/index.js";
import { renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderText } from "../../src/render/text.js";
import {
  collaboratorPlan,
  contentPlan,
  driftPlan,
  emptyPlan,
  mixedPlan,
  partialPlan,
  twoProjectPlan,
  VOCAB,
} from "./fixtures.js";

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "golden", "render");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`missing golden file ${name}: run with UPDATE_GOLDEN=1`);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

const CASES: Array<[string, () => Plan]> = [
  ["empty", emptyPlan],
  ["mixed", mixedPlan],
  ["drift", driftPlan],
  ["collaborators", collaboratorPlan],
  ["two-projects", twoProjectPlan],
  ["partial", partialPlan],
  ["content", contentPlan],
];

describe.each(CASES)("golden: %s plan", (name, build) => {
  it("text, plain", () => golden(`${name}.txt`, renderText(build(), { color: false, vocab: VOCAB })));
  it("text, coloured", () => golden(`${name}.color.txt`, renderText(build(), { color: true, vocab: VOCAB })));
  it("markdown", () =>
    golden(
      `${name}.md`,
      renderMarkdown(build(), { vocab: VOCAB, fullPlanHint: "the full plan is in the job summary" }),
    ));
  it("json", () => golden(`${name}.json`, renderJson(build())));
  it("annotations", () => golden(`${name}.annotations.txt`, planAnnotations(build(), VOCAB)));
});

it("golden: the mixed plan's markdown cut to 4,000 characters", () => {
  const md = renderMarkdown(mixedPlan(), {
    vocab: VOCAB,
    maxLength: 4000,
    fullPlanHint: "the full plan is in the job summary",
  });
  expect(md.length).toBeLessThanOrEqual(4000);
  golden("mixed.cut.md", md);
});

it("renderPlan gives each format's golden output", () => {
  const plan = mixedPlan();
  const file = (name: string) => readFileSync(join(GOLDEN, name), "utf8");
  expect(renderPlan(plan, "text", { kinds: KINDS })).toBe(file("mixed.txt"));
  expect(renderPlan(plan, "text", { kinds: KINDS, color: true })).toBe(file("mixed.color.txt"));
  const cut = { kinds: KINDS, maxLength: 4000, fullPlanHint: "the full plan is in the job summary" };
  expect(renderPlan(plan, "markdown", cut)).toBe(file("mixed.cut.md"));
  expect(renderPlan(plan, "json", { kinds: KINDS })).toBe(file("mixed.json"));
});
