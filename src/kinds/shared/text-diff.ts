import { createTwoFilesPatch } from "diff";

/** A unified diff of two texts, headed `--- before` / `+++ after`, without the index banner. */
export function unifiedDiff(before: string, after: string): string {
  const withEol = (t: string) => (t === "" || t.endsWith("\n") ? t : `${t}\n`);
  const patch = createTwoFilesPatch("before", "after", withEol(before), withEol(after), "", "", {
    context: 3,
  });
  const start = patch.indexOf("--- before");
  return (start >= 0 ? patch.slice(start) : patch).replace(/\t$/gm, "");
}
