/**
 * The live acceptance suite (`npm run test:live`): kept out of `npm test` (its files end in `.live.ts`,
 * which the default config's `test/**\/*.test.ts` never matches), so a shell that happens to hold a
 * real key never makes the unit run touch a real project.
 */
import { defineConfig } from "vitest/config";
import { workspaceAliases } from "../../vitest.workspace-aliases.js";

export default defineConfig({
  resolve: { alias: workspaceAliases },
  test: {
    include: ["test/live/**/*.live.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One project, one lifecycle: steps depend on each other.
    sequence: { concurrent: false },
    fileParallelism: false,
  },
});
