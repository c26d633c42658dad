/**
 * `npm test` runs every project; `npm run test:unit` (or `vitest run --project NAME`) one of them
 * (test/README.md says which folder holds what):
 *
 * - unit: the tool's tests that need no server, no child process and no build (seconds). Its files
 *   share each worker's modules (no isolation: the tool's modules are imported once per worker, not
 *   once per file, which was most of this project's time), so they must leave module state as they
 *   found it; the few that replace a module (`vi.mock`) run isolated, as unit-isolated (UNIT_MOCKING,
 *   which test/mocking.test.ts keeps complete). `npm run test:unit` runs both;
 * - e2e: the real CLI against the real emulator, child processes, the fault and fuzz campaigns: the
 *   folders test/e2e, test/faults and test/fuzz and every `*.e2e.test.ts`;
 * - package: the packed tarballs installed into an empty project, and the packages' boundaries;
 * - emulator and shared: the workspace packages' own suites (packages/{emulator,shared}/vitest.config.ts).
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { workspaceAliases } from "./vitest.workspace-aliases.js";

/** The unit files that replace a module with `vi.mock`: each needs a module graph of its own. */
export const UNIT_MOCKING = ["test/config/parse-fast.test.ts"];

const E2E = [
  "test/e2e/**/*.test.ts",
  "test/faults/**/*.test.ts",
  "test/fuzz/**/*.test.ts",
  "test/**/*.e2e.test.ts",
];

export default defineConfig({
  resolve: { alias: workspaceAliases },
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores (one worker on a two-core machine): most
    // files wait on sockets and child processes, so one per core keeps both busy.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...E2E, "test/package/**", ...UNIT_MOCKING],
          isolate: false,
        },
      },
      { extends: true, test: { name: "unit-isolated", include: UNIT_MOCKING } },
      { extends: true, test: { name: "e2e", include: E2E } },
      { extends: true, test: { name: "package", include: ["test/package/**/*.test.ts"] } },
      "packages/*",
    ],
  },
});
