/**
 * Command-line wiring only: commander declarations, lazy loading of one module per command, help texts,
 * and the one mapping of failures to a line on stderr and an exit code (`runCommand`). Each command
 * module exports `run(options, io): Promise<number>`.
 */
import { Command, CommanderError, Option } from "commander";
import { describeFailure, exitCodeOf } from "./errors.js";
import type { Io } from "./io.js";
import { KIND_KEYS } from "./kinds/keys.js";
import { processIo } from "./process-io.js";
import { colorEnabled } from "./render/paint.js";
import { scrubbingIo } from "./scrub.js";
import { VERSION } from "./version.js";

// Each command declares its own typed options; commander's parsed options are handed over as they are.
type RunFn = (options: never, io: Io) => Promise<number>;
type Loader = () => Promise<{ run: RunFn }>;

/**
 * Runs a command and maps any failure to one line on stderr and its exit code. The only place errors
 * become exit codes; tests that call a command's `run` go through it too. Everything the command
 * prints goes through the run's scrubber (scrub.ts), unless the caller's Io already does.
 */
export async function runCommand<O>(
  run: (options: O, io: Io) => Promise<number>,
  options: O,
  given: Io,
): Promise<number> {
  const scrubbing = given.scrubber ? undefined : scrubbingIo(given, colorEnabled(given.env, false));
  const io = scrubbing?.io ?? given;
  try {
    return await run(options, io);
  } catch (error) {
    io.stderr.write(`${describeFailure(error, { stack: Boolean(io.env.POSTHOG_GITOPS_DEBUG) })}\n`);
    return exitCodeOf(error);
  } finally {
    scrubbing?.flush();
  }
}

/** A repeatable option: one value per occurrence, so paths after it stay paths. */
const repeat = (value: string, previous: string[]) => [...previous, value];

const CONNECTION_ENV = [
  "  POSTHOG_HOST        service URL (default https://us.posthog.com; --host wins)",
  "  POSTHOG_API_KEY     personal API key (phx_...), sent only as Authorization: Bearer; never printed",
  "  POSTHOG_PROJECT_ID  project for files without `project:` (--project wins; a file's own project governs it)",
  "  POSTHOG_RATE_LIMIT  request budget, e.g. 480/minute,4800/hour (default: the service's limits)",
];

/** What plan, apply and pull read besides, when the files declare environments (SPEC §9). */
const ENVIRONMENT_ENV = [
  "  api_key_env         with environments declared: each one's key, in the variable its entry names",
  "                      (POSTHOG_API_KEY when it names none); its host and project are in its entry",
];

function help(env: string[], example: string): string {
  return `\nEnvironment variables:\n${env.join("\n")}\n\nExample:\n  $ ${example}\n`;
}

function connectionOptions(cmd: Command): Command {
  return cmd
    .option("--host <url>", "service URL (env POSTHOG_HOST, default https://us.posthog.com)")
    .option(
      "--project <id>",
      "project for files without `project:` (env POSTHOG_PROJECT_ID); with environments declared: only the single-project files of that project",
    )
    .option("--concurrency <n>", "parallel requests (default 4)")
    .option("--verbose", "log each request (method, path, status, ms, retries) to stderr")
    .option(
      "--quiet",
      "no progress line, no wait or retry lines and no unset-secrets note on stderr (errors still print)",
    );
}

const formatOption = (choices: string[]) =>
  new Option("--format <format>", "output format").choices(choices).default("text");

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("posthog-gitops")
    .description(
      "Keep PostHog dashboards, insights, feature flags and batch exports in Git as YAML, and reconcile the service to them.",
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
      setExit(await runCommand(mod.run as (options: unknown, io: Io) => Promise<number>, options, io));
    };

  program
    .command("validate")
    .description("check configuration files offline (no network, no key)")
    .argument("[paths...]", "files or folders (default posthog/)")
    .option("--project <id>", "project for files without `project:` (env POSTHOG_PROJECT_ID)")
    .addOption(formatOption(["text", "json"]))
    .addHelpText(
      "after",
      help(
        [
          "  POSTHOG_PROJECT_ID  project for files without `project:`",
          "  NAME                any variable a file lists under `variables:` or a secret field refers to",
          "  GITHUB_ACTIONS      when true, diagnostics are also ::error annotations (paths from GITHUB_WORKSPACE)",
        ],
        "posthog-gitops validate posthog/",
      ),
    )
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
    .addHelpText(
      "after",
      help(
        ["  (none: the emulator is configured by its options and seed)"],
        "posthog-gitops emulator --port 8010 &  POSTHOG_HOST=http://127.0.0.1:8010 POSTHOG_API_KEY=phx_emulator posthog-gitops plan",
      ),
    )
    .action(action(() => import("./commands/emulator.js")));

  program
    .command("render")
    .description(
      "print what one environment gets: the shared files with its overlays laid over them (offline)",
    )
    .argument("[paths...]", "files or folders (default posthog/)")
    .option("--env <name>", "the environment (required)", repeat, [])
    .addOption(
      new Option("--format <format>", "yaml (with comments citing overlays) or json")
        .choices(["yaml", "json"])
        .default("yaml"),
    )
    .addHelpText(
      "after",
      help(
        ["  (none: render reads only the files; secrets stay ${NAME} references)"],
        "posthog-gitops render --env production > production.yaml && posthog-gitops plan production.yaml",
      ),
    )
    .action(action(() => import("./commands/render.js")));

  connectionOptions(
    program
      .command("plan")
      .description("read live state and print what apply would change (sends only GET requests)")
      .argument("[paths...]", "files or folders (default posthog/)")
      .addOption(formatOption(["text", "markdown", "json"]))
      .option("--out <file>", "save the plan (with live-state fingerprints) for `apply --plan`")
      .option("--detailed-exitcode", "exit 0 when there are no changes, 2 when there are")
      .option("--prune", "delete live objects that no file declares (kinds the files list)")
      .option(
        "--undeclared",
        "also list, read-only, the live objects no file declares (what --prune would delete; counts as a change for --detailed-exitcode)",
      )
      .option("--force", "allow a prune above the safety threshold, and destination type or model changes")
      .option("--rotate-secrets", "send secret fields again even when nothing else changes")
      .option(
        "--target <kind/name>",
        "only these objects (a partial plan): dashboard/Weekly KPIs, dashboard/#42 (id), dashboard/Weekly* (glob); repeatable",
        repeat,
        [],
      )
      .option(
        "--base <ref>",
        "git revision to compare declarations with: changes to objects declared the same there are drift (changed outside posthog-gitops)",
      )
      .option(
        "--changed-only",
        "with --base: read and plan only the declarations changed since that revision (drift elsewhere is not checked)",
      )
      .option(
        "--env <name>",
        "with environments declared: only this environment (repeatable; default every one)",
        repeat,
        [],
      ),
  )
    .addHelpText(
      "after",
      help(
        [
          ...CONNECTION_ENV,
          ...ENVIRONMENT_ENV,
          "  NAME                variables the files list under `variables:` (secret variables are not needed to plan)",
          "  GITHUB_ACTIONS      when true: annotations, and the markdown plan appended to GITHUB_STEP_SUMMARY",
          "  NO_COLOR            no colour (colour is used only on a terminal)",
        ],
        "posthog-gitops plan posthog/ --format markdown --out plan.json",
      ),
    )
    .action(action(() => import("./commands/plan.js")));

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
        "only these objects (a partial plan): batch_export/events-to-s3, batch_export/#ID, batch_export/events-* (glob); repeatable",
        repeat,
        [],
      )
      .option("--base <ref>", "git revision to compare declarations with, to label drift in the plan shown")
      .option(
        "--changed-only",
        "with --base: read and apply only the declarations changed since that revision; every other object is left as it is live",
      )
      .option(
        "--env <name>",
        "with environments declared: apply this environment (repeatable; in promote_from order)",
        repeat,
        [],
      )
      .option(
        "--all",
        "with environments declared: every environment, in promote_from order, then the single-project files beside them, stopping at the first that fails",
      )
      .option(
        "--allow-destructive",
        "allow destructive actions in a `protect: true` environment (--auto-approve and --force do not)",
      )
      .addOption(
        new Option(
          "--format <format>",
          "text, or json: stdout is one result document (schemas/apply.schema.json), the plan and progress go to stderr",
        )
          .choices(["text", "json"])
          .default("text"),
      ),
  )
    .addHelpText(
      "after",
      help(
        [
          ...CONNECTION_ENV,
          ...ENVIRONMENT_ENV,
          "  NAME                variables the files list, and every secret variable the plan sends (apply fails before any write when one is unset)",
          "  NO_COLOR            no colour (colour is used only on a terminal)",
        ],
        "posthog-gitops apply posthog/ --auto-approve",
      ),
    )
    .action(action(() => import("./commands/apply.js")));

  connectionOptions(
    program
      .command("pull")
      .description(
        "write YAML for the project's live objects (new files in --out), or refresh the live values in files you have (--refresh)",
      )
      .argument("[paths...]", "with --refresh: the files or folders to refresh (default posthog/)")
      .option("--out <dir>", "folder to write new files into", "posthog")
      .option(
        "--refresh",
        "update the live values of the objects the files declare, keeping comments and ${NAME}",
      )
      .addOption(new Option("--kind <kind>", "only one kind").choices(KIND_KEYS))
      .option(
        "--env <name>",
        "adopt this environment: write its overlay (pins of what the shared files declare, and its own objects) into --out (default posthog/overlays)",
        repeat,
        [],
      ),
  )
    .addHelpText(
      "after",
      help(
        [...CONNECTION_ENV, ...ENVIRONMENT_ENV],
        "posthog-gitops pull --project 12345 --out posthog/production",
      ),
    )
    .action(action(() => import("./commands/pull.js")));

  connectionOptions(
    program
      .command("promote")
      .description(
        "carry edits made live in one environment into the shared files, and show the next environment's plan from them (sends only GET requests)",
      )
      .argument("<source>", "the environment whose live objects are promoted")
      .argument(
        "[rest...]",
        "the environment to plan (default: the one promoted from the source), then files or folders (default posthog/)",
      )
      .option("--write", "write the edits into the shared files (default: only show them)")
      .option(
        "--adopt",
        "also bring the source's live objects that no file declares into the shared files (never an id)",
      )
      .option("--detailed-exitcode", "exit 0 when there is nothing to promote, 2 when there are edits")
      .option("--out <file>", "also save the result as JSON (schemas/promote.schema.json)")
      .addOption(formatOption(["text", "markdown", "json"])),
  )
    .addHelpText(
      "after",
      help(
        [...ENVIRONMENT_ENV, "  NO_COLOR            no colour (colour is used only on a terminal)"],
        "posthog-gitops promote staging --write && posthog-gitops plan --env production",
      ),
    )
    .action(action(() => import("./commands/promote.js")));

  connectionOptions(
    program
      .command("status")
      .description("batch exports at a glance: latest run, failures and records of the last 7 days")
      .argument(
        "[paths...]",
        "only the exports these files or folders declare (default posthog/ when present)",
      )
      .option("--organization <id>", "every project of the organization (organization endpoint)")
      .option("--fail-on-error", "exit 1 when the latest run of some export failed")
      .addOption(formatOption(["text", "json"])),
  )
    .addHelpText("after", help(CONNECTION_ENV, "posthog-gitops status --fail-on-error"))
    .action(action(() => import("./commands/status.js")));

  const configOption = "YAML file or folder to resolve NAME (default posthog/ when present)";

  connectionOptions(
    program
      .command("runs")
      .description("list a batch export's runs, newest first")
      .argument("<name>", "batch export name (from the files or the live list) or id")
      .option("--status <statuses>", "only these statuses, comma-separated (e.g. Failed,FailedRetryable)")
      .option("--since <time>", "runs created after this time (ISO-8601 with timezone, or -7d, -12h)", "-7d")
      .option("--limit <n>", "at most this many runs", "50")
      .option("--config <path>", configOption)
      .addOption(formatOption(["text", "json"])),
  )
    .addHelpText(
      "after",
      help(CONNECTION_ENV, "posthog-gitops runs events-to-s3 --status Failed --since -2d"),
    )
    .action(action(() => import("./commands/runs.js")));

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
      .option("--config <path>", configOption),
  )
    .addHelpText("after", help(CONNECTION_ENV, "posthog-gitops retry events-to-s3 --failed --since -24h"))
    .action(action(() => import("./commands/retry.js")));

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
      .option("--config <path>", configOption)
      .addOption(formatOption(["text", "json"])),
  )
    .addHelpText(
      "after",
      help(
        CONNECTION_ENV,
        "posthog-gitops backfill events-to-s3 --start 2026-11-20T00:00:00Z --end 2026-11-20T06:00:00Z",
      ),
    )
    .action(action(() => import("./commands/backfill.js")));

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
      .option("--config <path>", configOption)
      .addOption(formatOption(["text", "json"])),
  )
    .addHelpText(
      "after",
      help(CONNECTION_ENV, "posthog-gitops logs events-to-s3 --level error,warning --since -1d"),
    )
    .action(action(() => import("./commands/logs.js")));

  connectionOptions(
    program
      .command("members")
      .description(
        "list the organization's members (email, name, UUID): who dashboard collaborators may name",
      )
      .option("--config <path>", "YAML file or folder naming the project (default posthog/ when present)")
      .addOption(formatOption(["text", "json"])),
  )
    .addHelpText(
      "after",
      help(
        [
          ...CONNECTION_ENV,
          "  (the key needs the scope organization_member:read and access to the organization)",
        ],
        "posthog-gitops members --project 12345",
      ),
    )
    .action(action(() => import("./commands/members.js")));

  connectionOptions(
    program
      .command("whoami")
      .description("show the API key's scopes and projects, and per command what it lacks for your files")
      .argument(
        "[paths...]",
        "files or folders whose kinds and projects to check (default posthog/ when present)",
      )
      .addOption(formatOption(["text", "json"])),
  )
    .addHelpText(
      "after",
      help(
        [
          ...CONNECTION_ENV,
          "  (any personal API key may ask: GET /api/personal_api_keys/@current/ needs no scope)",
        ],
        "posthog-gitops whoami posthog/",
      ),
    )
    .action(action(() => import("./commands/whoami.js")));

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
      .option("--config <path>", "YAML file or folder naming the project (default posthog/ when present)")
      .addOption(formatOption(["text", "json", "csv"])),
  )
    .addHelpText(
      "after",
      help(CONNECTION_ENV, "posthog-gitops events --event '$pageview' --after -1h --limit 20"),
    )
    .action(action(() => import("./commands/events.js")));

  return program;
}

/** Runs the CLI; returns the exit code. Only this function and bin/ touch `process`. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  given: Io = processIo(env),
): Promise<number> {
  // Help, commander's messages and every command's output: all of it scrubbed (scrub.ts).
  const { io, flush } = scrubbingIo(given, colorEnabled(env, false));
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    // Commander has printed its own message (unknown option, missing argument, --help, --version).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    io.stderr.write(`${describeFailure(error, { stack: Boolean(io.env.POSTHOG_GITOPS_DEBUG) })}\n`);
    return exitCodeOf(error);
  } finally {
    flush();
  }
}
