/**
 * Paths the tool writes or reads on the user's behalf (`--out`, saved plans, pulled files, the job
 * summary): a failure is one line naming the path and the reason in words, code `file_error`, exit 1.
 * What the tool writes goes through `writeOutput`, which scrubs it of the run's secrets (scrub.ts),
 * never follows a symbolic link at the path (SPEC §8: a link there, even one leading nowhere, is
 * refused, so a write cannot land where the link points), and gives a file it is asked to keep
 * private exactly that mode, also when the file was there before.
 */
import { constants, lstatSync } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { UserError } from "./errors.js";
import type { Io } from "./io.js";
import { scrubText } from "./scrub.js";

const REASONS: Record<string, string> = {
  ENOENT: "no such file or folder",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "it is a folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EEXIST: "it already exists",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
};

/** The reason of a file-system error in words (its code when it has no words here). */
export function fileReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code && REASONS[code]) ?? code ?? (error instanceof Error ? error.message : String(error));
}

/** `cannot <doing> <path>: <reason>`, as a UserError. */
export function fileError(doing: string, path: string, error: unknown): UserError {
  return new UserError(`cannot ${doing} ${path}: ${fileReason(error)}`, "file_error", { cause: error });
}

/** Runs `work`; a file-system failure becomes `fileError(doing, path)`. */
export async function withFile<T>(doing: string, path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === "string")
      throw fileError(doing, path, error);
    throw error;
  }
}

export interface WriteOptions {
  /** Add to the end of the file instead of replacing it. */
  append?: boolean;
  /** Only create: a file (or link) already at the path is an error ("it already exists"). */
  create?: boolean;
  /** The file's exact permissions (e.g. 0o600 for a saved plan), also when it existed. */
  mode?: number;
  /**
   * The caller scrubbed the parts that can hold a secret (a saved plan's plan, with `scrubValue`) and the
   * rest must be written as it is (the host, paths and targets `apply --plan` reads back).
   */
  scrubbed?: boolean;
}

/** Opening never follows a link at the path where the platform can refuse one (not on Windows). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Whether anything, a link leading nowhere included, is at `path`. */
export function pathTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes text the tool made to `path` (absolute), scrubbed of the run's secrets; `shown` names the file
 * in an error, as `withFile` does.
 */
export async function writeOutput(
  io: Io,
  doing: string,
  shown: string,
  path: string,
  text: string,
  options: WriteOptions = {},
): Promise<void> {
  const clean = options.scrubbed ? text : scrubText(io, text);
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    (options.append ? constants.O_APPEND : constants.O_TRUNC) |
    (options.create ? constants.O_EXCL : 0) |
    NO_FOLLOW;
  try {
    await withFile(doing, shown, async () => {
      if (NO_FOLLOW === 0 && (await lstat(path).catch(() => undefined))?.isSymbolicLink()) {
        throw Object.assign(new Error("a symbolic link"), { code: "ELOOP" });
      }
      const file = await open(path, flags, options.mode ?? 0o666);
      try {
        // Narrowed before a byte is written: a file that existed keeps none of its wider mode.
        if (options.mode !== undefined) await file.chmod(options.mode);
        await file.writeFile(clean);
      } finally {
        await file.close();
      }
    });
  } catch (error) {
    throw (await isLink(path, error)) ? linkError(doing, shown, error) : error;
  }
}

/** Whether `error` came from a symbolic link at `path` (ELOOP on Linux and macOS, EMLINK on FreeBSD). */
async function isLink(path: string, error: unknown): Promise<boolean> {
  const code = ((error as UserError).cause as NodeJS.ErrnoException | undefined)?.code;
  if (code !== "ELOOP" && code !== "EMLINK" && code !== "EEXIST") return false;
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() === true;
}

function linkError(doing: string, shown: string, error: unknown): UserError {
  return new UserError(
    `cannot ${doing} ${shown}: it is a symbolic link, and posthog-gitops never writes through one`,
    "file_error",
    { cause: error },
  );
}
