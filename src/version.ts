/**
 * The tool's version, from package.json (a bundle built by scripts/build-action.mjs has it written in at
 * build time instead). Saved plans record it; pulled files name the schema of this version.
 */
import { createRequire } from "node:module";

declare const __POSTHOG_GITOPS_VERSION__: string | undefined;

export const VERSION: string =
  typeof __POSTHOG_GITOPS_VERSION__ === "string"
    ? __POSTHOG_GITOPS_VERSION__
    : (createRequire(import.meta.url)("../package.json") as { version: string }).version;

/** Where this version's configuration schema is published (the npm package's file, through a CDN). */
export const PUBLISHED_SCHEMA = `https://unpkg.com/posthog-gitops@${VERSION}/schemas/config.schema.json`;
