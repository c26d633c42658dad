/**
 * `ignore:` name globs protect live objects from --prune, so a glob that can never match is a silent
 * hole in that protection: refuse empty or blank globs and ones picomatch cannot compile.
 */
import picomatch from "picomatch";
import type { Diagnostics } from "./diagnostics.js";
import type { ParsedFile } from "./parse.js";

/** True when the glob is usable; otherwise reports why at its node. */
export function checkGlob(glob: string, pointer: string, file: ParsedFile, diags: Diagnostics): boolean {
  const at = file.position(file.place(pointer)?.value ?? 0);
  if (glob.trim() === "") {
    diags.error(file.path, at.line, at.column, "ignore glob is empty and can never match a name");
    return false;
  }
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    diags.error(file.path, at.line, at.column, `ignore glob "${glob}" is invalid: ${reason}`);
    return false;
  }
}

/** Whether a live object's name matches one of the globs (for --prune). */
export function isIgnored(name: string, globs: readonly string[]): boolean {
  return globs.some((glob) => picomatch.isMatch(name, glob, { strictBrackets: true, dot: true }));
}
