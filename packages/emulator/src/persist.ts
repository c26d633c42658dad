/**
 * `--state FILE`: the store is loaded from the file at start (when it exists) and written after
 * changes, debounced, atomically (temporary file then rename). `flush()` writes any pending change.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Store } from "./store.js";

const DEBOUNCE_MS = 100;

export function readStateFile(path: string): unknown | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8"));
}

export class StatePersister {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly path: string,
    private readonly store: Store,
  ) {
    store.onChange(() => this.schedule());
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, DEBOUNCE_MS);
    this.timer.unref();
  }

  private write(): void {
    const tmp = `${this.path}.tmp-${randomBytes(6).toString("hex")}`;
    // A new file (never a link someone left), then renamed over the path: the state is always 0600.
    writeFileSync(tmp, `${JSON.stringify(this.store.data)}\n`, { mode: 0o600, flag: "wx" });
    renameSync(tmp, this.path);
  }

  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
  }
}
