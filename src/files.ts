/**
 * Paths the tool writes or reads on the user's behalf (`--out`, saved plans, pulled files, the job
 * summary): a failure is one line naming the path and the reason in words, code `file_error`, exit 1.
 */
import { UserError } from "./errors.js";

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
