import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The shared package from its sources, as this package's own are run: no build before a test.
    alias: [
      {
        find: /^posthog-gitops-shared\/(.*)$/,
        replacement: fileURLToPath(new URL("../shared/src/$1.ts", import.meta.url)),
      },
    ],
  },
  test: {
    name: "emulator",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One worker per core (Vitest's default leaves one core idle): most files wait on sockets.
    maxWorkers: availableParallelism(),
    // The files share each worker's modules: the emulator's modules hold constants and caches only,
    // and each file starts and closes its own emulator, so nothing carries from one file to the next;
    // importing them once per worker instead of once per file cuts this suite's time by more than half.
    isolate: false,
  },
});
