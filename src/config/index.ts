/** The configuration stage's public surface: load files into desired state, format diagnostics. */
export { countBySeverity, formatDiagnostic } from "./diagnostics.js";
export { isIgnored } from "./ignore.js";
export { type LoadMode, type LoadOptions, type LoadResult, loadConfig } from "./load.js";
export { secretPaths } from "./schema.js";
