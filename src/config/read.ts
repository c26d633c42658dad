/**
 * Finding and reading the configuration files. Folders are walked recursively (dot-folders skipped,
 * symlinked folders not followed), only `.yaml`/`.yml` files are taken from folders, and the result is
 * sorted so the same tree always loads in the same order. Files are size-checked before reading and must
 * be UTF-8. Every problem becomes a diagnostic; nothing is thrown.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Diagnostics } from "./diagnostics.js";

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_FOLDER_DEPTH = 32;
const DEFAULT_PATH = "posthog";

export interface SourceFile {
  /** Shown in diagnostics: relative to cwd when inside it, else absolute; always with `/`. */
  path: string;
  text: string;
}

export async function readSources(
  paths: readonly string[],
  cwd: string,
  diags: Diagnostics,
): Promise<SourceFile[]> {
  const wanted = paths.length > 0 ? paths : [DEFAULT_PATH];
  const found = new Map<string, string>(); // absolute path → display path
  for (const given of wanted) {
    const absolute = resolve(cwd, given);
    const shown = displayPath(absolute, cwd);
    const info = await stat(absolute).catch(() => undefined);
    if (info === undefined) {
      diags.error(shown, 0, 0, `no such file or folder "${given}"`);
    } else if (info.isDirectory()) {
      const before = found.size;
      await walk(absolute, cwd, found, 0, diags);
      if (found.size === before) diags.error(shown, 0, 0, "folder contains no .yaml or .yml files");
    } else if (info.isFile()) {
      found.set(absolute, shown);
    } else {
      diags.error(shown, 0, 0, "not a regular file or folder");
    }
  }
  const entries = [...found].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
  const files: SourceFile[] = [];
  for (const [absolute, shown] of entries) {
    const text = await readText(absolute, shown, diags);
    if (text !== undefined) files.push({ path: shown, text });
  }
  return files;
}

async function walk(
  folder: string,
  cwd: string,
  found: Map<string, string>,
  depth: number,
  diags: Diagnostics,
): Promise<void> {
  if (depth > MAX_FOLDER_DEPTH) {
    diags.error(
      displayPath(folder, cwd),
      0,
      0,
      `folders nested deeper than ${MAX_FOLDER_DEPTH} levels are not read`,
    );
    return;
  }
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    diags.error(displayPath(folder, cwd), 0, 0, "folder cannot be read");
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".")) await walk(full, cwd, found, depth + 1, diags);
    } else if (/\.ya?ml$/i.test(entry.name) && (entry.isFile() || entry.isSymbolicLink())) {
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(full);
      } catch (error) {
        // A config file whose link leads nowhere would otherwise vanish from the desired state unnoticed.
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === "ENOENT" ? "broken link" : code === "ELOOP" ? "link loop" : "not accessible";
        diags.error(displayPath(full, cwd), 0, 0, `cannot read file: ${why}`);
        continue;
      }
      if (info.isFile()) found.set(full, displayPath(full, cwd));
    }
  }
}

async function readText(absolute: string, shown: string, diags: Diagnostics): Promise<string | undefined> {
  try {
    const info = await stat(absolute);
    if (info.size > MAX_FILE_BYTES) {
      diags.error(shown, 0, 0, `file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB (${info.size} bytes)`);
      return undefined;
    }
    const bytes = await readFile(absolute);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      const at = firstInvalidUtf8(bytes);
      const { line, column } = bytePosition(bytes, at);
      diags.error(shown, line, column, "file is not valid UTF-8 text");
      return undefined;
    }
  } catch {
    diags.error(shown, 0, 0, "file cannot be read");
    return undefined;
  }
}

export function displayPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  const shown = rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? absolute : rel;
  return shown.split(sep).join("/");
}

/** Index of the first byte that does not start or continue a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need =
      b < 0x80
        ? 0
        : b >= 0xc2 && b <= 0xdf
          ? 1
          : b >= 0xe0 && b <= 0xef
            ? 2
            : b >= 0xf0 && b <= 0xf4
              ? 3
              : -1;
    if (need < 0) return i;
    const slice = bytes.subarray(i, i + need + 1);
    if (slice.length !== need + 1) return i;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(slice);
    } catch {
      return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

function bytePosition(bytes: Uint8Array, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < index; i++) {
    if (bytes[i] === 0x0a) {
      line += 1;
      start = i + 1;
    }
  }
  return { line, column: index - start + 1 };
}
