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

/** The GitHub repository of the tool and its action (`uses: posthog-gitops/posthog-gitops@v0`). */
export const REPOSITORY = "posthog-gitops/posthog-gitops";

/**
 * Where this version's configuration schema is published: the file in the repository at the release's
 * tag, which exists wherever the action does, whether or not the package is on the npm registry.
 */
export const PUBLISHED_SCHEMA = `https://raw.githubusercontent.com/${REPOSITORY}/v${VERSION}/schemas/config.schema.json`;
