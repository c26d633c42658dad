#!/usr/bin/env node
// Entry point installed as the `posthog-gitops` command. The TypeScript sources are compiled to dist/
// by `npm run build` (a packed or published package ships dist/: `npm pack` builds first; a git
// checkout builds it once).
// A plain copy of the environment: the YAML parser reads process.env while tokenising, and reads of
// the live process.env are slow enough to cost a third of the load time of a large configuration.
process.env = { ...process.env };

let cli;
try {
  cli = await import("../dist/cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  // One clear line instead of a stack: the checkout was not built, or its dependencies not installed.
  const unbuilt = /Cannot find module '[^']*dist[\\/]cli\.js'/.test(String(error.message));
  const installed = /[\\/]node_modules[\\/]/.test(import.meta.url);
  process.stderr.write(
    !unbuilt
      ? `posthog-gitops: a dependency is missing (${String(error.message).split("\n")[0]}); run \`npm ci\`\n`
      : installed
        ? "posthog-gitops: this installed copy has no dist/ (it was packed unbuilt): install a tarball made by `npm pack` in a checkout, which builds first\n"
        : "posthog-gitops: dist/ is missing in this checkout; run `npm run build` first\n",
  );
  process.exit(1);
}

process.exitCode = await cli.main(process.argv, process.env);
