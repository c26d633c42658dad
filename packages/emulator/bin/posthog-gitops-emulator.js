#!/usr/bin/env node
// Entry point installed as the `posthog-gitops-emulator` command (see README.md). The TypeScript sources
// are compiled to dist/ by `npm run build` (`npm pack` builds first).
import { main } from "../dist/cli.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  onTerminate(stop) {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    };
  },
});
