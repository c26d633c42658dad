/**
 * Finding and reading the configuration files: the trust boundary for config (SPEC §8). Only regular
 * files reached from the given paths are read:
 *
 * - Each given path (file or folder) is a root; its real path is where the run may read. Folders are
 *   walked recursively (dot-folders skipped, symlinked folders not followed) and only `.yaml`/`.yml`
 *   files are taken from them; a given file is taken whatever its name.
 * - A symlink is followed only when its real path stays under the real path of one of the roots.
 * - Nothing whose real path is under /proc, /sys or /dev is read, and nothing that is not a regular
 *   file (a FIFO, a socket, a device): such a file is an error naming its path, and is never opened
 *   (a FIFO would block).
 * - Each file is read with a size cap (MAX_FILE_BYTES) and all of them together with another
 *   (MAX_TOTAL_BYTES), even when a file grows or lies about its size (read-bounded.ts).
 *
 * The result is sorted so the same tree always loads in the same order. Files must be UTF-8. Every
 * problem becomes a diagnostic naming the path, never the file's content; nothing is thrown.
 */
import type { Dirent, Stats } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Diagnostics } from "./diagnostics.js";
import { type FileIdentity, readBounded } from "./read-bounded.js";

/** Largest configuration file read, in bytes (5 MB): a larger file is an error and is not read. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/**
 * Largest total of all the configuration files of one run, in bytes (50 MB): ten files at the limit.
 * The file that would cross it, and the files after it, are not read (one error says so).
 */
export const MAX_TOTAL_BYTES = 50 * 1024 * 1024;
const MAX_FOLDER_DEPTH = 32;
const DEFAULT_PATH = "posthog";
/** What a newcomer without the default folder can do (after `no such file or folder "posthog"`). */
const NO_DEFAULT_FOLDER = ` (the default): give the files or folders to read, or write ${DEFAULT_PATH}/ from a live project with \`posthog-gitops pull --project ID\``;
/** Real paths under these are never configuration (endless or secret-bearing pseudo-files). */
const SYSTEM_FOLDERS = ["/proc", "/sys", "/dev"];
const MB = 1024 * 1024;

export interface SourceFile {
  /** Shown in diagnostics: relative to cwd when inside it, else absolute; always with `/`. */
  path: string;
  text: string;
}

/** A file to read: where to open it (a real path for links) and the file discovery checked. */
interface Found {
  shown: string;
  open: string;
  identity: FileIdentity;
}

export async function readSources(
  paths: readonly string[],
  cwd: string,
  diags: Diagnostics,
): Promise<SourceFile[]> {
  const wanted = paths.length > 0 ? paths : [DEFAULT_PATH];
  const found = new Map<string, Found>(); // absolute path → file
  const roots: string[] = [];
  const folders: { absolute: string; shown: string }[] = [];
  // Every root first, so that a link in one folder may lead into another given path.
  for (const given of wanted) {
    const absolute = resolve(cwd, given);
    const shown = displayPath(absolute, cwd);
    const real = await realpath(absolute).catch((error: NodeJS.ErrnoException) => error);
    if (real instanceof Error) {
      const message =
        real.code === "ENOENT"
          ? `no such file or folder "${given}"${paths.length === 0 ? NO_DEFAULT_FOLDER : ""}`
          : real.code === "ELOOP"
            ? "cannot read: link loop"
            : "cannot read: not accessible";
      diags.error(shown, 0, 0, message);
      continue;
    }
    if (isSystem(real)) {
      diags.error(shown, 0, 0, systemMessage(absolute, real));
      continue;
    }
    const info = await stat(real).catch(() => undefined);
    if (info?.isDirectory()) {
      roots.push(real);
      folders.push({ absolute, shown });
    } else if (info?.isFile()) {
      roots.push(real);
      found.set(absolute, { shown, open: real, identity: identity(info) });
    } else {
      diags.error(shown, 0, 0, `not a regular file or folder${kind(info)}: not read`);
    }
  }
  for (const { absolute, shown } of folders) {
    const seen = await walk(absolute, cwd, roots, found, 0, diags);
    if (seen === 0) diags.error(shown, 0, 0, "folder contains no .yaml or .yml files");
  }
  const entries = [...found.values()].sort((a, b) => compare(a.shown, b.shown));
  const files: SourceFile[] = [];
  let total = 0;
  for (const [i, file] of entries.entries()) {
    const limit = Math.min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - total);
    const read = await readBounded(file.open, limit, file.identity);
    if (read.ok) {
      total += read.bytes.length;
      const text = decode(read.bytes, file.shown, diags);
      if (text !== undefined) files.push({ path: file.shown, text });
    } else if (read.reason !== "too-large") {
      const why = read.reason === "changed" ? "it changed while being read" : "not accessible";
      diags.error(file.shown, 0, 0, `cannot read file: ${why}`);
    } else if (limit === MAX_FILE_BYTES || (read.size ?? 0) > MAX_FILE_BYTES) {
      const size = read.size === undefined ? " (it grew while being read)" : ` (${read.size} bytes)`;
      diags.error(file.shown, 0, 0, `file is larger than ${MAX_FILE_BYTES / MB} MB${size}`);
    } else {
      const rest = entries.length - 1 - i;
      const which = rest === 0 ? "this file is" : `this file and the ${rest} after it are`;
      diags.error(
        file.shown,
        0,
        0,
        `configuration files together are larger than ${MAX_TOTAL_BYTES / MB} MB: ${which} not read`,
      );
      break;
    }
  }
  return files;
}

/** Walks a folder; returns how many `.yaml`/`.yml` entries it met (taken or refused), for the caller's check. */
async function walk(
  folder: string,
  cwd: string,
  roots: readonly string[],
  found: Map<string, Found>,
  depth: number,
  diags: Diagnostics,
): Promise<number> {
  if (depth > MAX_FOLDER_DEPTH) {
    diags.error(
      displayPath(folder, cwd),
      0,
      0,
      `folders nested deeper than ${MAX_FOLDER_DEPTH} levels are not read`,
    );
    return 1;
  }
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    diags.error(displayPath(folder, cwd), 0, 0, "folder cannot be read");
    return 1;
  }
  let seen = 0;
  entries.sort((a, b) => compare(a.name, b.name));
  for (const entry of entries) {
    const full = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".")) seen += await walk(full, cwd, roots, found, depth + 1, diags);
      continue;
    }
    if (!/\.ya?ml$/i.test(entry.name)) continue;
    const shown = displayPath(full, cwd);
    const file = entry.isSymbolicLink() ? await followLink(full, roots) : await plainEntry(full);
    if (file === undefined) continue; // a link to a folder
    seen += 1;
    if (typeof file === "string") diags.error(shown, 0, 0, file);
    else found.set(full, { shown, ...file });
  }
  return seen;
}

/** A directory entry that is not a link: a regular file, or an error message for anything else. */
async function plainEntry(full: string): Promise<Omit<Found, "shown"> | string> {
  const info = await lstat(full).catch(() => undefined);
  if (info === undefined) return "cannot read file: not accessible";
  if (!info.isFile()) return `not a regular file${kind(info)}: not read`;
  return { open: full, identity: identity(info) };
}

/**
 * A link to a regular file under one of the roots, undefined for a link to a folder (not followed),
 * or an error message.
 */
async function followLink(
  full: string,
  roots: readonly string[],
): Promise<Omit<Found, "shown"> | string | undefined> {
  const real = await realpath(full).catch((error: NodeJS.ErrnoException) => error);
  if (real instanceof Error) {
    // A config file whose link leads nowhere would otherwise vanish from the desired state unnoticed.
    const why =
      real.code === "ENOENT" ? "broken link" : real.code === "ELOOP" ? "link loop" : "not accessible";
    return `cannot read file: ${why}`;
  }
  const info = await stat(real).catch(() => undefined);
  if (info?.isDirectory()) return undefined;
  if (isSystem(real)) return systemMessage(full, real);
  if (!roots.some((root) => isInside(real, root))) {
    return `link leads outside the given paths, to ${real}: not read`;
  }
  if (info === undefined) return "cannot read file: not accessible";
  if (!info.isFile()) return `not a regular file${kind(info)}: not read`;
  return { open: real, identity: identity(info) };
}

const identity = (info: Stats): FileIdentity => ({ dev: info.dev, ino: info.ino });

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function isSystem(real: string): boolean {
  return SYSTEM_FOLDERS.some((folder) => real === folder || real.startsWith(`${folder}/`));
}

function systemMessage(absolute: string, real: string): string {
  const link = real === absolute ? "" : `link leads to ${real}; `;
  return `${link}files under /proc, /sys and /dev are never read as configuration`;
}

function kind(info: Stats | undefined): string {
  if (info === undefined) return "";
  if (info.isFIFO()) return " (a FIFO)";
  if (info.isSocket()) return " (a socket)";
  if (info.isCharacterDevice() || info.isBlockDevice()) return " (a device)";
  if (info.isDirectory()) return " (a folder)";
  return "";
}

function decode(bytes: Uint8Array, shown: string, diags: Diagnostics): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const { line, column } = bytePosition(bytes, at);
    diags.error(shown, line, column, "file is not valid UTF-8 text");
    return undefined;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
