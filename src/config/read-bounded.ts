/**
 * Reading one file that discovery (read.ts) found to be a regular file, without trusting that it still
 * is: it is opened without following a final symlink and without blocking (a FIFO swapped in cannot
 * stall the run), must be the very file discovery checked (same device and inode), and is read in
 * bounded steps up to a byte limit, so a file that grows while being read, or lies about its size
 * (as files under /proc do), never costs more than the limit.
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

/** The file discovery checked, by identity. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export type BoundedRead =
  | { ok: true; bytes: Uint8Array }
  /** More than `limit` bytes: `size` is what the file claims, absent when it grew past the limit. */
  | { ok: false; reason: "too-large"; size?: number }
  | { ok: false; reason: "changed" | "unreadable" };

const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** First read when the file claims to be empty (files under /proc do): small, grown as needed. */
const FIRST_CHUNK = 64 * 1024;

export async function readBounded(path: string, limit: number, expected: FileIdentity): Promise<BoundedRead> {
  let handle: FileHandle;
  try {
    handle = await open(path, FLAGS);
  } catch (error) {
    // ELOOP: the path became a symlink since discovery.
    return {
      ok: false,
      reason: (error as NodeJS.ErrnoException).code === "ELOOP" ? "changed" : "unreadable",
    };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.dev !== expected.dev || info.ino !== expected.ino) {
      return { ok: false, reason: "changed" };
    }
    if (info.size > limit) return { ok: false, reason: "too-large", size: info.size };
    // One byte more than the limit allows tells a file that grew past it from one that ends there.
    let buffer = new Uint8Array(Math.min(limit + 1, Math.max(info.size + 1, FIRST_CHUNK)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length > limit) break;
        const grown = new Uint8Array(Math.min(limit + 1, buffer.length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > limit) return { ok: false, reason: "too-large" };
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch {
    return { ok: false, reason: "unreadable" };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
