#!/usr/bin/env node
// Entry point installed as the `posthog-gitops` command. The TypeScript sources are compiled to dist/
// by `npm run build` (run automatically by `npm ci` / `npm install` through the prepare script).
// A plain copy of the environment: the YAML parser reads process.env while tokenising, and reads of
// the live process.env are slow enough to cost a third of the load time of a large configuration.
process.env = { ...process.env };

const { main } = await import("../dist/cli.js");

process.exitCode = await main(process.argv, process.env);
