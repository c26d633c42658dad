/**
 * The workspace packages from their TypeScript sources, the way the tool's own sources are run in
 * tests: no build between an edit and a test run. (The built binary and the packed tarball resolve them
 * through node_modules to their dist/, as an installed copy does.)
 */
import { fileURLToPath } from "node:url";

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const workspaceAliases = [
  { find: /^posthog-gitops-emulator$/, replacement: at("packages/emulator/src/index.ts") },
  { find: /^posthog-gitops-shared\/(.*)$/, replacement: at("packages/shared/src/$1.ts") },
];
