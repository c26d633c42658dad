/**
 * YAML text → plain data, plus a lookup from the JSON pointers ajv reports (`/dashboards/0/name`) to
 * the source offset of that key and value. Two paths give the same result: a fast one (js-yaml,
 * parse-fast.ts) for the common clean file, and the reference one (the `yaml` library, parse-slow.ts)
 * for everything else: any file the fast path is unsure about, and every file with a YAML problem, so
 * that each diagnostic about YAML itself keeps one wording and one position.
 */
import type { Diagnostics } from "./diagnostics.js";
import { parseFast } from "./parse-fast.js";
import { parseSlow } from "./parse-slow.js";
import type { ParsedFile } from "./parse-types.js";

export {
  FORBIDDEN_KEYS,
  MAX_ALIAS_COUNT,
  MAX_DEPTH,
  type NodePlace,
  type ParsedFile,
} from "./parse-types.js";

/** Returns undefined (with diagnostics) when the file cannot be used at all. */
export function parseYaml(path: string, text: string, diags: Diagnostics): ParsedFile | undefined {
  return parseFast(path, text) ?? parseSlow(path, text, diags);
}
