/**
 * `posthog-gitops validate [PATH...]`: checks the files offline (no key, no network), so it works on pull
 * requests from forks. Diagnostics go to stdout (text, or one JSON document with --format json), a
 * one-line summary to stderr; in GitHub Actions each diagnostic is also an annotation on its YAML line
 * (on stderr). Secret variables need not be set: that is for `plan` and `apply` to mention.
 * Exit 1 when any error, else 0 (warnings and notes do not fail).
 */
import { countBySeverity, formatDiagnostic } from "../config/index.js";
import type { Diagnostic } from "../config/types.js";
import type { Io } from "../io.js";
import { diagnosticAnnotations } from "../render/github.js";
import { count } from "../words.js";
import { loadFiles, shownDiagnostics } from "./config.js";
import type { ConnectionFlags } from "./connect.js";
import { inGitHubActions, workspacePath } from "./github.js";

export interface ValidateOptions extends Pick<ConnectionFlags, "project"> {
  args: string[];
  format?: "text" | "json";
}

export async function run(options: ValidateOptions, io: Io): Promise<number> {
  const result = await loadFiles(options.args, options, io, "validate");
  // Unset secret variables are no problem of the files: plan and apply say so, where it matters.
  const diagnostics = shownDiagnostics(result);
  const counts = countBySeverity(diagnostics);
  if (options.format === "json") {
    const document = {
      valid: counts.error === 0,
      files: result.files,
      objects: result.objects,
      diagnostics: diagnostics.map((d) => ({ ...d })),
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    for (const d of diagnostics) io.stdout.write(`${formatDiagnostic(d)}\n`);
  }
  // On stderr, so `--format json` stays parseable; the runner reads workflow commands from both streams.
  if (inGitHubActions(io)) io.stderr.write(diagnosticAnnotations(diagnostics, workspacePath(io)));
  io.stderr.write(`${summary(result.files.length, result.objects, diagnostics)}\n`);
  return counts.error > 0 ? 1 : 0;
}

/** `3 files, 12 objects: 2 errors, 1 note` or `3 files, 12 objects: valid`. */
export function summary(files: number, objects: number, diagnostics: readonly Diagnostic[]): string {
  const counts = countBySeverity(diagnostics);
  const parts = (["error", "warning", "note"] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => count(counts[s], s));
  return `${count(files, "file")}, ${count(objects, "object")}: ${parts.length > 0 ? parts.join(", ") : "valid"}`;
}
