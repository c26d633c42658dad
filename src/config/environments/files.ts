/**
 * What each file of a set is (SPEC §9): the declaration (`environments:` as a mapping), a shared file
 * (`environments: all` or a list of names), an overlay (`overlay: NAME`), or a single-project file
 * (`project:` or nothing), and the rules between those roles. A file that serves environments is
 * checked here at its top level only; its declarations are checked once merged, per environment, so an
 * overlay's partial entries and a shared file's `${NAME}` numbers are judged by what they make.
 */
import type { Diagnostics } from "../diagnostics.js";
import type { ConfigKind } from "../kinds.js";
import type { ParsedFile } from "../parse-types.js";
import { validateSchema } from "../schema.js";
import { parsePointer, reportSchemaErrors } from "../schema-errors.js";
import { didYouMean } from "../suggest.js";
import { sourceOf } from "./document.js";

export type FileRole =
  | { role: "single"; file: ParsedFile }
  | { role: "declaration"; file: ParsedFile; broken: Set<string> }
  | { role: "shared"; file: ParsedFile; serves: "all" | string[] }
  | { role: "overlay"; file: ParsedFile; environment: string };

type Data = Record<string, unknown>;

function isMapping(value: unknown): value is Data {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** True for a file that takes part in environments: it declares them, serves them, or is an overlay. */
export function servesEnvironments(file: ParsedFile): boolean {
  return (
    isMapping(file.data) && (Object.hasOwn(file.data, "environments") || Object.hasOwn(file.data, "overlay"))
  );
}

/**
 * Each file's role; problems with the roles go to `diags`. A file whose role cannot be told (its
 * `environments:` or `overlay:` has the wrong shape) is left out, with the schema's error.
 */
export function fileRoles(
  files: readonly ParsedFile[],
  kinds: readonly ConfigKind[],
  diags: Diagnostics,
): FileRole[] {
  const roles: FileRole[] = [];
  for (const file of files) {
    if (!servesEnvironments(file)) {
      roles.push({ role: "single", file });
      continue;
    }
    const data = file.data as Data;
    // The top level only: each kind's list stands empty, so its items wait for the merged check.
    const hollow: Data = { ...data };
    for (const kind of kinds) if (Array.isArray(hollow[kind.key])) hollow[kind.key] = [];
    const errors = validateSchema(kinds, hollow);
    reportSchemaErrors(file, errors, diags, kinds);
    const broken = new Set(
      errors
        .filter((e) => e.keyword !== "additionalProperties")
        .map((e) => parsePointer(e.instancePath).slice(0, 2).join("/")),
    );
    if (broken.has("environments") || broken.has("overlay")) continue;
    const error = (pointer: string, message: string, which: "key" | "value" = "key") => {
      const at = sourceOf(file, pointer, which);
      diags.error(at.file, at.line, at.column, message);
    };
    const has = (key: string) => Object.hasOwn(data, key);
    if (has("overlay") && has("environments")) {
      error("/overlay", "a file is an overlay (overlay:) or serves environments (environments:), never both");
      continue;
    }
    if (has("variables")) {
      error(
        "/variables",
        "a file serving environments reads each environment's own variables (environments.NAME.variables in the declaration): remove variables:",
      );
    }
    if (has("overlay")) {
      if (has("project")) {
        error(
          "/project",
          `an overlay serves its environment, whose entry in the declaration names the project: remove project:`,
        );
      }
      roles.push({ role: "overlay", file, environment: data.overlay as string });
      continue;
    }
    const environments = data.environments;
    if (isMapping(environments)) {
      for (const key of Object.keys(data)) {
        if (key === "environments") continue;
        error(
          `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`,
          `the file that declares the environments holds nothing else: put ${key} in a shared file (environments: all) or an overlay`,
        );
      }
      const entries = new Set(
        [...broken].filter((p) => p.startsWith("environments/")).map((p) => parsePointer(`/${p}`)[1] ?? ""),
      );
      // A schema error deeper in an entry marks the entry: find it from the errors' full paths.
      for (const e of errors) {
        const [top, name] = parsePointer(e.instancePath);
        if (top === "environments" && name !== undefined && e.keyword !== "additionalProperties")
          entries.add(name);
      }
      roles.push({ role: "declaration", file, broken: entries });
      continue;
    }
    if (has("project")) {
      error(
        "/project",
        "a file names project: (one project) or environments: (the environments it serves), never both",
      );
    }
    roles.push({ role: "shared", file, serves: environments === "all" ? "all" : (environments as string[]) });
  }
  return roles;
}

/**
 * The declaration among the roles (exactly one), with errors for a second one, for files serving
 * environments when none is declared, and for names that no entry declares.
 */
export function checkRoles(
  roles: readonly FileRole[],
  names: readonly string[] | undefined,
  diags: Diagnostics,
): void {
  const error = (file: ParsedFile, pointer: string, message: string) => {
    const at = sourceOf(file, pointer);
    diags.error(at.file, at.line, at.column, message);
  };
  for (const role of roles) {
    if (role.role === "overlay") {
      if (names === undefined) {
        error(
          role.file,
          "/overlay",
          "no file declares the environments: add one with an environments: mapping",
        );
      } else if (!names.includes(role.environment)) {
        error(
          role.file,
          "/overlay",
          `overlay of ${role.environment}, which the declaration does not name${didYouMean(role.environment, names)}`,
        );
      }
    } else if (role.role === "shared") {
      if (names === undefined) {
        error(
          role.file,
          "/environments",
          "no file declares the environments: add one with an environments: mapping",
        );
      } else if (role.serves !== "all") {
        role.serves.forEach((name, i) => {
          if (!names.includes(name)) {
            error(
              role.file,
              `/environments/${i}`,
              `environment ${name} is not declared${didYouMean(name, names)}`,
            );
          }
        });
      }
    }
  }
}

/** The environments a file with this role serves, of those declared. */
export function servedBy(role: FileRole, names: readonly string[]): string[] {
  if (role.role === "overlay") return names.includes(role.environment) ? [role.environment] : [];
  if (role.role === "shared")
    return role.serves === "all" ? [...names] : role.serves.filter((n) => names.includes(n));
  return [];
}
