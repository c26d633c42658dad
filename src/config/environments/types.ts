/**
 * One set of files for several projects (SPEC §9): what the `environments:` declaration says of each
 * environment, and what loading gives for each: its merged configuration, as a single-project
 * configuration of its project loads, and the merged document with the origin of every value.
 */
import type { SourceRef } from "../types.js";

/** A value an environment's `variables:` gives: `${NAME}` alone takes its type. */
export type VariableValue = string | number | boolean;

/** One entry of the `environments:` declaration. */
export interface EnvironmentEntry {
  name: string;
  project: number;
  /** Absent: POSTHOG_HOST, else the default host. */
  host?: string;
  /** The process variable holding this environment's key; absent: POSTHOG_API_KEY. */
  apiKeyEnv?: string;
  /** The environment changes are promoted from: the order of promotion and of `apply --all`. */
  promoteFrom?: string;
  /** Destructive actions need --allow-destructive (also under --auto-approve; --force does not lift it). */
  protect: boolean;
  /** A plan with more actions (`changes`) or destructive actions (`deletes`) is refused unless --force. */
  limits?: { changes?: number; deletes?: number };
  /** What `${NAME}` gives in a non-secret value of a file serving this environment. */
  variables: Record<string, VariableValue>;
  /** NAME → the process variable a secret reference `${NAME}` reads here. */
  secrets: Record<string, string>;
  /** Where the entry is declared (its name), and each of its settings by key (`project`, `variables/X`). */
  source: SourceRef;
  sources: Record<string, SourceRef>;
}

/**
 * What an overlay did to a value of the merged document, at a pointer into it: set it (or added the
 * whole declaration), replaced a list of the shared files whole, left it unmanaged (`null`), or
 * excluded a shared declaration; or which variable or secret mapping gave it.
 */
export interface Mark {
  pointer: string;
  how: "set" | "added" | "replaced" | "unmanaged" | "excluded" | "variable" | "secret";
  /** Where that was written: the overlay's line, or the variable's entry. */
  source: SourceRef;
  /** For `replaced`: where the shared list was; for `variable` / `secret`: the variable's name. */
  detail?: string;
}
