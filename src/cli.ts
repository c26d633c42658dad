/**
 * Command-line wiring only: commander declarations, lazy loading of one module per command, and the
 * mapping of errors to exit codes. Each command module exports `run(options, io): Promise<number>`.
 */
import { Command, CommanderError, Option } from "commander";
import { InternalError, isUserError } from "./errors.js";
import type { Io } from "./io.js";
import { processIo } from "./process-io.js";

// Each command declares its own typed options; commander's parsed options are handed over as they are.
type CommandModule = { run: (options: never, io: Io) => Promise<number> };
type Loader = () => Promise<CommandModule>;

const VERSION = "0.1.0";

/** A repeatable option: one value per occurrence, so paths after it stay paths. */
const repeat = (value: string, previous: string[]) => [...previous, value];

function connectionOptions(cmd: Command): Command {
  return cmd
    .option("--host <url>", "service URL (env POSTHOG_HOST, default https://us.posthog.com)")
    .option("--project <id>", "project id (env POSTHOG_PROJECT_ID; a file's `project:` wins)")
    .option("--concurrency <n>", "parallel requests (default 4)")
    .option("--verbose", "log each request (method, path, status, ms, retries) to stderr");
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("posthog-gitops")
    .description(
      "Keep PostHog dashboards and batch exports in Git as YAML, and reconcile the service to them.",
    )
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });

  const action = (load: Loader) =>
    async function (this: Command, ...args: unknown[]) {
      const cmd = args[args.length - 1] as Command;
      const options = { ...cmd.opts(), args: cmd.args };
      const mod = await load();
      setExit(await mod.run(options as never, io));
    };

  program
    .command("validate")
    .description("check configuration files offline (no network, no key)")
    .argument("[paths...]", "files or folders (default posthog/)")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(action(() => import("./commands/validate.js")));

  program
    .command("emulator")
    .description("run a local stand-in of the service API on loopback")
    .option("--port <n>", "port to listen on (0 picks a free one)", "8010")
    .option("--host <address>", "address to bind", "127.0.0.1")
    .option("--seed <file>", "JSON seed: organizations, projects, users, objects")
    .option("--state <file>", "persist the store to this file between runs")
    .option("--api-key <key>", "personal API key accepted with every scope", "phx_emulator")
    .option("--latency-ms <n>", "latency added to every API request", "0")
    .option("--error-rate <rate>", "fraction of API requests answered with an error (0..1)", "0")
    .option("--error-status <status>", "status of injected errors", "502")
    .option("--rate-limit <spec>", "per-key limits, e.g. 480/minute,4800/hour")
    .action(action(() => import("./commands/emulator.js")));

  connectionOptions(
    program
      .command("plan")
      .description("read live state and print what apply would change (sends only GET requests)")
      .argument("[paths...]", "files or folders (default posthog/)")
      .addOption(
        new Option("--format <format>", "output format")
          .choices(["text", "markdown", "json"])
          .default("text"),
      )
      .option("--out <file>", "save the plan (with live-state fingerprints) for `apply --plan`")
      .option("--detailed-exitcode", "exit 0 when there are no changes, 2 when there are")
      .option("--prune", "delete live objects that no file declares (kinds the files list)")
      .option("--force", "allow a prune above the safety threshold, and destination type or model changes")
      .option("--rotate-secrets", "send secret fields again even when nothing else changes")
      .option(
        "--target <kind/name>",
        "only this object, e.g. dashboard/Weekly KPIs (repeatable)",
        repeat,
        [],
      ),
  ).action(action(() => import("./commands/plan.js")));

  connectionOptions(
    program
      .command("apply")
      .description("make the planned changes; idempotent")
      .argument("[paths...]", "files or folders (default posthog/)")
      .option("--plan <file>", "apply exactly this saved plan (refused if live state changed since)")
      .option("--auto-approve", "do not ask for confirmation (required without a terminal)")
      .option("--prune", "delete live objects that no file declares (kinds the files list)")
      .option("--force", "allow a prune above the safety threshold, and destination type or model changes")
      .option("--rotate-secrets", "send secret fields again even when nothing else changes")
      .option(
        "--target <kind/name>",
        "only this object, e.g. batch_export/events-to-s3 (repeatable)",
        repeat,
        [],
      ),
  ).action(action(() => import("./commands/apply.js")));

  connectionOptions(
    program
      .command("pull")
      .description("write YAML for the project's live objects, so existing projects can be adopted")
      .option("--out <dir>", "folder to write into", "posthog")
      .addOption(new Option("--kind <kind>", "only one kind").choices(["dashboards", "batch_exports"])),
  ).action(action(() => import("./commands/pull.js")));

  connectionOptions(
    program
      .command("status")
      .description("batch exports at a glance: latest run, failures and records of the last 7 days")
      .argument("[paths...]", "only the exports these files or folders declare")
      .option("--organization <id>", "every project of the organization (organization endpoint)")
      .option("--fail-on-error", "exit 1 when the latest run of some export failed")
      .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text")),
  ).action(action(() => import("./commands/status.js")));

  connectionOptions(
    program
      .command("runs")
      .description("list a batch export's runs, newest first")
      .argument("<name>", "batch export name (from the files or the live list) or id")
      .option("--status <statuses>", "only these statuses, comma-separated (e.g. Failed,FailedRetryable)")
      .option("--since <time>", "runs created after this time (ISO-8601 with timezone, or -7d, -12h)", "-7d")
      .option("--limit <n>", "at most this many runs", "50")
      .option("--config <path>", "YAML file or folder to resolve NAME (default posthog/ when present)")
      .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text")),
  ).action(action(() => import("./commands/runs.js")));

  connectionOptions(
    program
      .command("retry")
      .description("retry a run, or every failed run since a time (starts backfills)")
      .argument("<name>", "batch export name (from the files or the live list) or id")
      .argument("[run_id]", "the run to retry")
      .option("--failed", "retry the failed runs created since --since")
      .option(
        "--since <time>",
        "with --failed: runs created after this time (ISO-8601 with timezone, or -24h)",
      )
      .option("--auto-approve", "do not ask for confirmation (required without a terminal)")
      .option("--config <path>", "YAML file or folder to resolve NAME (default posthog/ when present)"),
  ).action(action(() => import("./commands/retry.js")));

  connectionOptions(
    program
      .command("backfill")
      .description("export a past window of a batch export (e.g. the gap while it was paused)")
      .argument("<name>", "batch export name (from the files or the live list) or id")
      .requiredOption(
        "--start <time>",
        "window start: ISO-8601 with timezone, -7d, or YYYY-MM-DD for daily/weekly exports",
      )
      .requiredOption("--end <time>", "window end (not in the future), same forms as --start")
      .option("--config <path>", "YAML file or folder to resolve NAME (default posthog/ when present)")
      .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text")),
  ).action(action(() => import("./commands/backfill.js")));

  connectionOptions(
    program
      .command("logs")
      .description("show a batch export's log entries, newest first")
      .argument("<name>", "batch export name (from the files or the live list) or id")
      .option("--run <id>", "only this run's entries")
      .option("--level <levels>", "only these levels, comma-separated (DEBUG, LOG, INFO, WARNING, ERROR)")
      .option("--search <text>", "only entries whose message contains this (any case)")
      .option("--since <time>", "entries after this time (ISO-8601 with timezone, or -24h)")
      .option("--limit <n>", "at most this many entries", "50")
      .option("--config <path>", "YAML file or folder to resolve NAME (default posthog/ when present)")
      .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text")),
  ).action(action(() => import("./commands/logs.js")));

  connectionOptions(
    program
      .command("events")
      .description("list recent events (legacy events endpoint), to check that events flow")
      .option("--event <name>", "only this event, e.g. $pageview")
      .option("--distinct-id <id>", "only this person's distinct id")
      .option("--after <time>", "events after this time (ISO-8601 with timezone, or -1d)")
      .option("--before <time>", "events before this time")
      .option(
        "--where <key=value>",
        "exact match on an event property (repeatable)",
        (v: string, all: string[]) => [...all, v],
        [] as string[],
      )
      .option("--limit <n>", "at most this many events", "100")
      .addOption(
        new Option("--format <format>", "output format").choices(["text", "json", "csv"]).default("text"),
      ),
  ).action(action(() => import("./commands/events.js")));

  return program;
}

/** Runs the CLI; returns the exit code. Only this function and bin/ touch `process`. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, io: Io = processIo(env)): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 1;
    }
    if (isUserError(error)) {
      io.stderr.write(`error: ${error.message}\n`);
      return error.exitCode;
    }
    const internal = error instanceof Error ? error : new InternalError(String(error));
    io.stderr.write(
      `internal error (this is a bug in posthog-gitops, please report it):\n${internal.stack ?? internal.message}\n`,
    );
    return 1;
  }
}
