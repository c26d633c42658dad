/**
 * The package entry `posthog-gitops/emulator`: the emulator package (posthog-gitops-emulator, a
 * dependency of this one), re-exported so that `import { startEmulator } from "posthog-gitops/emulator"`
 * keeps working. Nothing of the tool imports this file.
 */
export * from "posthog-gitops-emulator";
