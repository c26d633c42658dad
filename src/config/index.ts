/** The configuration stage's public surface: load files into desired state, format diagnostics. */
export { countBySeverity, formatDiagnostic } from "./diagnostics.js";
export { isIgnored } from "./ignore.js";
export type { ConfigKind, KindWords, SchemaNode } from "./kinds.js";
export {
  type EnvironmentConfig,
  type Environments,
  type InMemoryFiles,
  type LoadMode,
  type LoadOptions,
  type LoadResult,
  loadConfig,
} from "./load.js";
export { composeSchema } from "./schema.js";
export type { Declared, DesiredProject, Diagnostic, LoadedConfig, SourceRef } from "./types.js";
