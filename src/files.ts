/**
 * Paths the tool writes or reads on the user's behalf (`--out`, saved plans, pulled files, the job
 * summary): a failure is one line naming the path and the reason in words, code `file_error`, exit 1.
 * What the tool writes goes through `writeOutput`, which scrubs it of the run's secrets (scrub.ts).
 */
import { appendFile, writeFile } from "node:fs/promises";
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
  /** Permissions of a new file (e.g. 0o600 for a saved plan). */
  mode?: number;
  /**
   * The caller scrubbed the parts that can hold a secret (a saved plan's plan, with `scrubValue`) and the
   * rest must be written as it is (the host, paths and targets `apply --plan` reads back).
   */
  scrubbed?: boolean;
}

/**
 * Writes text the tool made to `path` (absolute), scrubbed of the run's secrets; `shown` names the file
 * in an error, as `withFile` does.
 */
export function writeOutput(
  io: Io,
  doing: string,
  shown: string,
  path: string,
  text: string,
  options: WriteOptions = {},
): Promise<void> {
  const clean = options.scrubbed ? text : scrubText(io, text);
  const mode = options.mode === undefined ? {} : { mode: options.mode };
  return withFile(doing, shown, () =>
    options.append ? appendFile(path, clean, mode) : writeFile(path, clean, mode),
  );
}
