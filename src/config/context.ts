/**
 * What normalising one declared object needs: where its nodes are (for diagnostics), the environment
 * for `${NAME}` references, and the run's mode (a missing secret variable is fatal only for apply).
 */
import type { Diagnostics } from "./diagnostics.js";
import { interpolate } from "./interpolate.js";
import type { ParsedFile } from "./parse.js";
import type { Severity, SourceRef } from "./types.js";

export type LoadMode = "validate" | "plan" | "apply";

export interface RunContext {
  env: Readonly<Record<string, string | undefined>>;
  mode: LoadMode;
  diags: Diagnostics;
  /** Variables that secrets refer to but that are unset (or empty). */
  missingSecrets: Set<string>;
  /** Per unset variable, its first use and how many secret fields use it (see missing-secrets.ts). */
  missingSecretUses: Map<string, FirstUse>;
}

/** The first use of an unset secret variable, and how many secret fields use it. */
export interface FirstUse {
  ctx: ObjectContext;
  pointer: string;
  field: string;
  count: number;
}

export class ObjectContext {
  /**
   * @param base JSON pointer of the object, e.g. `/dashboards/3`
   * @param owner how messages name it, e.g. `dashboard "Weekly KPIs"`
   */
  constructor(
    readonly run: RunContext,
    readonly file: ParsedFile,
    readonly base: string,
    readonly owner: string,
  ) {}

  /** Position of a node under the object (`/tags/0`); `key` for the key of a mapping entry. */
  at(path: string, which: "key" | "value" = "value"): SourceRef {
    const place = this.file.place(this.base + path) ?? this.file.place(this.base);
    const offset = which === "key" ? (place?.key ?? place?.value ?? 0) : (place?.value ?? 0);
    const { line, column } = this.file.position(offset);
    return { file: this.file.path, line, column };
  }

  report(severity: Severity, path: string, message: string, which: "key" | "value" = "value"): void {
    const { file, line, column } = this.at(path, which);
    this.run.diags.add(severity, file, line, column, message);
  }

  error(path: string, message: string, which: "key" | "value" = "value"): void {
    this.report("error", path, message, which);
  }

  /** `a.b[0]` for a pointer `/a/b/0`, for messages. */
  field(path: string): string {
    return path
      .slice(1)
      .split("/")
      .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === "" ? s : `${acc}.${s}`), "");
  }

  /** A non-secret string with its `${NAME}` references replaced; a missing variable is an error. */
  text(path: string, value: string): string {
    const result = interpolate(value, this.run.env);
    if (!result.ok) {
      this.error(path, `${result.problem} (in ${this.field(path)} of ${this.owner})`);
      return value;
    }
    for (const name of result.missing) {
      this.error(
        path,
        `environment variable ${name} is not set (used in ${this.field(path)} of ${this.owner})`,
      );
    }
    return result.value;
  }

  /** Strings anywhere inside a value interpolated; `skip` lists pointers (relative to base) left out. */
  deep(path: string, value: unknown, skip: ReadonlySet<string> = new Set()): unknown {
    if (typeof value === "string") return this.text(path, value);
    if (Array.isArray(value)) return value.map((item, i) => this.deep(`${path}/${i}`, item, skip));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const child = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (!skip.has(child)) out[key] = this.deep(child, item, skip);
      }
      return out;
    }
    return value;
  }

  /** Where the object is declared: the start of its mapping (its first key). */
  source(): SourceRef {
    return this.at("");
  }
}
