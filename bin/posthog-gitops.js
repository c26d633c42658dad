#!/usr/bin/env node
// Entry point installed as the `posthog-gitops` command. The TypeScript sources are compiled to dist/
// by `npm run build` (run automatically by `npm ci` / `npm install` through the prepare script).
import { main } from "../dist/cli.js";

process.exitCode = await main(process.argv, process.env);
