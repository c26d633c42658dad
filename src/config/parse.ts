/**
 * YAML text → plain data, plus a lookup from the JSON pointers ajv reports (`/dashboards/0/name`) to
 * the source offset of that key and value. One parser, the `yaml` library: its Parser runs once per
 * file (with its LineCounter, the source of every line and column), and its tokens become data in
 * one of two ways that give the same result:
 *
 * - directly (parse-fast.ts), for the common clean file: no document tree is built, positions come
 *   from the tokens;
 * - through the library's Composer (parse-slow.ts), for everything else: any file the direct path is
 *   unsure about, and every file with a YAML problem, so that each diagnostic about YAML itself keeps
 *   one wording and one position.
 */
import { type CST, Lexer, LineCounter, Parser } from "yaml";
import type { Diagnostics } from "./diagnostics.js";
import { convertTokens } from "./parse-fast.js";
import { composeFile } from "./parse-slow.js";
import { MAX_DEPTH, MAX_TOKENS, type ParsedFile } from "./parse-types.js";

export {
  FORBIDDEN_KEYS,
  MAX_ALIAS_COUNT,
  MAX_DEPTH,
  MAX_EXPANDED_CHARS,
  MAX_NODES,
  MAX_TOKENS,
  type NodePlace,
  type ParsedFile,
} from "./parse-types.js";

const TOO_MANY_TOKENS = `file holds more than ${MAX_TOKENS / 1_000_000} million YAML tokens (keys, values, indicators, line breaks): split it into smaller files`;

interface Tokens {
  tokens: CST.Token[];
  position: ParsedFile["position"];
}

/**
 * The library's parse of the whole text (its Lexer and Parser, as its own `Parser.parse` drives
 * them), and line/column lookup from what it counted; or, past MAX_TOKENS, where it stopped.
 */
function tokenize(text: string): Tokens | { stoppedAt: number; position: ParsedFile["position"] } {
  const lines = new LineCounter();
  const position = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  let count = 0;
  for (const lexeme of new Lexer().lex(text)) {
    count += 1;
    if (count > MAX_TOKENS) return { stoppedAt: parser.offset, position };
    for (const token of parser.next(lexeme)) tokens.push(token);
  }
  for (const token of parser.end()) tokens.push(token);
  return { tokens, position };
}

type Route = "either" | "direct" | "composed";

/**
 * Returns undefined (with diagnostics) when the file cannot be used at all. `listKeys`: the kinds'
 * list keys, which an empty file's message names.
 */
export function parseYaml(
  path: string,
  text: string,
  diags: Diagnostics,
  listKeys: readonly string[] = [],
): ParsedFile | undefined {
  return parseBy("either", path, text, diags, listKeys);
}

/**
 * One route alone, for the differential tests: "direct" gives undefined where it would hand over,
 * "composed" is the reference result for any file.
 */
export function parseBy(
  route: Route,
  path: string,
  text: string,
  diags: Diagnostics,
  listKeys: readonly string[] = [],
): ParsedFile | undefined {
  let parsed: ReturnType<typeof tokenize>;
  try {
    parsed = tokenize(text);
  } catch (error) {
    if (route === "direct") return undefined;
    const message =
      error instanceof RangeError ? `nesting deeper than ${MAX_DEPTH} levels` : "YAML cannot be parsed";
    diags.error(path, 1, 1, message);
    return undefined;
  }
  if ("stoppedAt" in parsed) {
    if (route === "direct") return undefined;
    const at = parsed.position(parsed.stoppedAt);
    diags.error(path, at.line, at.column, TOO_MANY_TOKENS);
    return undefined;
  }
  const { tokens, position } = parsed;
  if (route !== "composed") {
    const direct = convertTokens(tokens, text);
    if (direct !== undefined) return { path, data: direct.data, position, place: direct.place };
    if (route === "direct") return undefined;
  }
  return composeFile(path, text, tokens, position, diags, listKeys);
}
