/**
 * The emulator's command line: `posthog-gitops-emulator` (this package's bin) and `posthog-gitops
 * emulator` (the tool's command, which hands its option text to `optionsFromFlags`). Prints exactly one
 * line `listening on http://HOST:PORT` on stdout and serves until SIGINT / SIGTERM, then closes and
 * exits 0. A bad option is one line on stderr and exit 1, never a stack.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Clock } from "posthog-gitops-shared/clock";
import { startEmulator } from "./index.js";
import { type EmulatorFlags, EmulatorUsageError, isLoopback, optionsFromFlags } from "./options.js";

const USAGE = `Usage: posthog-gitops-emulator [options]

A local stand-in of the PostHog API on loopback, for tests (see the package's README).

Options:
  --port <n>               port to listen on (0 picks a free one) (default: 8010)
  --host <address>         address to bind (default: 127.0.0.1)
  --seed <file>            JSON seed: organizations, projects, users, objects
  --state <file>           persist the store to this file between runs
  --api-key <key>          personal API key accepted with every scope (default: phx_emulator)
  --latency-ms <n>         latency added to every API request (default: 0)
  --error-rate <rate>      fraction of API requests answered with an error, 0..1 (default: 0)
  --error-status <status>  status of injected errors (default: 502)
  --rate-limit <spec>      per-key limits, e.g. 480/minute,4800/hour, or none
  -v, --version            print the version
  -h, --help               print this help

Example:
  posthog-gitops-emulator --port 8010 &
  curl -H "Authorization: Bearer phx_emulator" http://127.0.0.1:8010/api/projects/12345/dashboards/
`;

/** The options with a value, as `parseArgs` reads them. */
const TEXT = { type: "string" } as const;
const OPTIONS = {
  port: TEXT,
  host: TEXT,
  seed: TEXT,
  state: TEXT,
  "api-key": TEXT,
  "latency-ms": TEXT,
  "error-rate": TEXT,
  "error-status": TEXT,
  "rate-limit": TEXT,
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** What `main` touches outside memory; the bin hands it the process's. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Calls `stop` once on SIGINT / SIGTERM; returns how to stop listening. */
  onTerminate(stop: () => void): () => void;
  clock?: Clock;
}

/** The bin's program: `args` without node and the script. Resolves to the exit code once stopped. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  let flags: EmulatorFlags;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (values.version) {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    flags = {
      port: values.port,
      host: values.host,
      seed: values.seed,
      state: values.state,
      apiKey: values["api-key"],
      latencyMs: values["latency-ms"],
      errorRate: values["error-rate"],
      errorStatus: values["error-status"],
      rateLimit: values["rate-limit"],
    };
  } catch (error) {
    return fail(io, `${message(error)} (see --help)`);
  }
  const host = flags.host ?? "127.0.0.1";
  if (!isLoopback(host)) {
    io.stderr.write(`warning: binding the emulator to ${host}: other machines can reach it\n`);
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(optionsFromFlags(flags, io.clock));
  } catch (error) {
    return fail(io, error instanceof EmulatorUsageError ? error.message : `cannot start: ${message(error)}`);
  }
  io.stdout.write(`listening on ${emulator.url}\n`);
  await new Promise<void>((resolve) => {
    const unsubscribe = io.onTerminate(() => {
      unsubscribe();
      resolve();
    });
  });
  await emulator.close();
  return 0;
}

function fail(io: CliIo, text: string): number {
  io.stderr.write(`posthog-gitops-emulator: ${text}\n`);
  return 1;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
