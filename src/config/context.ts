/**
 * What normalising one declared object needs: where its nodes are (for diagnostics), the environment
 * for `${NAME}` references with the names its file may read (`variables:`), and the run's mode (a
 * missing secret variable is fatal only for apply).
 */
import type { Diagnostics } from "./diagnostics.js";
import { envLookup, interpolate, isCredentialName, scan } from "./interpolate.js";
import { noteAt, sourceAt } from "./located.js";
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
    /** The names this file lists under `variables:` and may use in non-secret strings. */
    readonly variables: ReadonlySet<string> = new Set(),
  ) {}

  /** Position of a node under the object (`/tags/0`); `key` for the key of a mapping entry. */
  at(path: string, which: "key" | "value" = "value"): SourceRef {
    return sourceAt(this.file, this.base + path, which, this.base);
  }

  report(severity: Severity, path: string, message: string, which: "key" | "value" = "value"): void {
    const { file, line, column } = this.at(path, which);
    this.run.diags.add(severity, file, line, column, `${message}${noteAt(this.file, this.base + path)}`);
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
  /**
   * A non-secret string with its `${NAME}` references replaced. Only names the file lists under
   * `variables:` are read, never a credential-looking one; anything else is an error at the value, and
   * the value is kept as written (nothing of the environment reaches it).
   */
  text(path: string, value: string): string {
    if (!this.checkReferences(path, value)) return value;
    const result = interpolate(value, envLookup(this.run.env));
    if (!result.ok) return value;
    for (const name of result.missing) {
      this.error(
        path,
        `environment variable ${name} is not set (used in ${this.field(path)} of ${this.owner})`,
      );
    }
    return result.value;
  }

  /** Reports every reference in a non-secret string that may not be read; true when there is none. */
  checkReferences(path: string, value: string): boolean {
    const scanned = scan(value);
    const where = `${this.field(path)} of ${this.owner}`;
    if (!scanned.ok) {
      this.error(path, `${scanned.problem} (in ${where})`);
      return false;
    }
    let allowed = true;
    for (const { name } of scanned.references) {
      if (isCredentialName(name)) {
        this.error(
          path,
          `\${${name}} in ${where} may never be used outside a secret field: POSTHOG_* variables and names that look like credentials stay out of plans and of the service (write $\${ for a literal \${)`,
        );
        allowed = false;
      } else if (!this.variables.has(name)) {
        this.error(
          path,
          `\${${name}} in ${where} is not read from the environment: list ${name} under \`variables:\` in this file to use it (or write $\${ for a literal \${)`,
        );
        allowed = false;
      }
    }
    return allowed;
  }

  /**
   * For an item left out because of schema errors: its references are still checked (every problem is
   * reported at once), except in the fields `skip` names (secret fields, which follow their own rule).
   */
  checkAllReferences(path: string, value: unknown, skip: ReadonlySet<string>): void {
    if (skip.has(path)) return;
    if (typeof value === "string") this.checkReferences(path, value);
    else if (Array.isArray(value))
      value.forEach((item, i) => {
        this.checkAllReferences(`${path}/${i}`, item, skip);
      });
    else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        this.checkAllReferences(`${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, item, skip);
      }
    }
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
