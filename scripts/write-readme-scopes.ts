/**
 * Writes README's table of the API key scopes each command needs, per kind, from the code that
 * declares them (src/commands/scopes.ts), between its two marker lines. `npm run readme:scopes`; a test
 * (test/cli/scopes.e2e.test.ts) fails when README's table is not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { scopesMarkdown } from "../src/commands/scopes.js";
import { KINDS } from "../src/kinds/index.js";

export const BEGIN = "<!-- scopes: written from the code by `npm run readme:scopes` -->";
export const END = "<!-- scopes: end -->";

/** README with the table between the markers made anew. */
export function withScopes(readme: string): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the lines ${BEGIN} and ${END}`);
  return `${readme.slice(0, begin + BEGIN.length)}\n${scopesMarkdown(KINDS)}${readme.slice(end)}`;
}

if (process.argv[1]?.endsWith("write-readme-scopes.ts")) {
  const path = new URL("../README.md", import.meta.url);
  writeFileSync(path, withScopes(readFileSync(path, "utf8")));
  console.log("wrote README.md's scopes table");
}
