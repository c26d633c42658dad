/**
 * A shared file's change as a unified diff (`--- a/PATH` / `+++ b/PATH`, three lines of context), the
 * form reviewers read in a pull request; a new file is diffed against nothing (`/dev/null`).
 */
import { createTwoFilesPatch } from "diff";

const withEol = (t: string) => (t === "" || t.endsWith("\n") ? t : `${t}\n`);

export function unifiedFileDiff(path: string, before: string | undefined, after: string): string {
  const patch = createTwoFilesPatch(
    before === undefined ? "/dev/null" : `a/${path}`,
    `b/${path}`,
    withEol(before ?? ""),
    withEol(after),
    "",
    "",
    { context: 3 },
  );
  const start = patch.indexOf("--- ");
  return (start >= 0 ? patch.slice(start) : patch).replace(/\t$/gm, "");
}
