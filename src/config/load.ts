/**
 * `loadConfig`: files and folders (or in-memory files) → desired state. Stages: read (size, UTF-8),
 * parse (positions, hostile YAML refused), then the documents (documents.ts: schema, each item through
 * its kind's `declare`, the rules that span files). A set of files that serves environments (SPEC §9)
 * is merged per environment first (environments/), then loaded the same way. Every problem is
 * collected; the loader never branches on a kind.
 */
import { createHash } from "node:crypto";
import { Diagnostics } from "./diagnostics.js";
import { loadDocuments } from "./documents.js";
import { servesEnvironments } from "./environments/files.js";
import { loadEnvironments } from "./environments/load.js";
import type { InMemoryFiles, LoadOptions, LoadResult } from "./load-types.js";
import { type ParsedFile, parseYaml } from "./parse.js";
import { readSources } from "./read.js";

export type { LoadMode } from "./context.js";
export type {
  EnvironmentConfig,
  Environments,
  InMemoryFiles,
  LoadOptions,
  LoadResult,
} from "./load-types.js";

export async function loadConfig(
  input: readonly string[] | InMemoryFiles,
  options: LoadOptions,
): Promise<LoadResult> {
  const { kinds } = options;
  const diags = new Diagnostics();
  const sources = "files" in input ? [...input.files] : await readSources(input, options.cwd, diags);
  const files: ParsedFile[] = [];
  for (const source of sources) {
    const file = parseYaml(
      source.path,
      source.text,
      diags,
      kinds.map((k) => k.key),
    );
    if (file !== undefined) files.push(file);
  }
  const digests = Object.fromEntries(
    sources.map((s) => [s.path, createHash("sha256").update(s.text).digest("hex")]),
  );
  const paths = sources.map((s) => s.path);
  // One set of files for several projects (SPEC §9): only when some file says so; otherwise every
  // configuration loads exactly as it always has.
  if (files.some(servesEnvironments)) {
    return loadEnvironments(files, { ...options, diags, digests, paths });
  }
  const loaded = loadDocuments(files, options, diags);
  return {
    projects: loaded.projects,
    // The note about unset secrets is about the environment, not a place in the files: after them all.
    diagnostics: loaded.secretsNote === undefined ? diags.sorted() : [...diags.sorted(), loaded.secretsNote],
    ...(loaded.secretsNote === undefined ? {} : { secretsNote: loaded.secretsNote }),
    missingSecretVariables: loaded.missingSecretVariables,
    files: paths,
    digests,
    objects: loaded.objects,
  };
}
