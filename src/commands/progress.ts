/**
 * Saying on stderr what takes time (SPEC §4): on a terminal, one line redrawn in place (what is being
 * done, requests and objects read or actions done of total, and the current wait); elsewhere (CI),
 * plain lines: one for every rate-limit wait, every retry and every slow answer, and one every 10 s
 * while a step lasts. `--quiet` silences all of it; `--verbose` adds the per-request lines as before.
 *
 * The live line is drawn by hand (carriage return and erase-line): libraries that do this take over
 * process.stdout and install signal handlers of their own, and here output goes through the injected
 * `Io` and interrupts are the command's. Everything the command writes goes through `io` below, which
 * clears the line before and redraws it after, so output and the line never mix.
 */
import type { Io, Output } from "../io.js";
import { formatCount } from "../render/table.js";
import type { ClientEvent } from "../service/index.js";
import { cut } from "../text.js";
import { plural } from "../words.js";

export interface Progress {
  /** For the client's `onEvent`. */
  onEvent(event: ClientEvent): void;
  /** What is being done now, e.g. "reading live state"; `total` for a step counted in actions. */
  step(label: string, total?: number): void;
  /** One more action of the step's total is done. */
  advance(): void;
  /** Clears the live line and stops the clock; output after this is written as is. */
  stop(): void;
  /** The command's `Io` with output that keeps clear of the live line. */
  io: Io;
}

export interface ProgressOptions {
  quiet?: boolean;
  /** Plain lines: how often a step that lasts says it is still going (default 10 s). */
  heartbeatMs?: number;
}

const ERASE_LINE = "\r\u001b[2K";

export function progressFor(io: Io, options: ProgressOptions = {}): Progress {
  if (options.quiet) return { onEvent() {}, step() {}, advance() {}, stop() {}, io };
  return io.stderr.isTTY === true ? new LiveLine(io) : new PlainLines(io, options.heartbeatMs ?? 10_000);
}

/** What a step has done so far. */
class Tally {
  label = "";
  total: number | undefined;
  done = 0;
  requests = 0;
  objects = 0;
  /** A wait in progress: until when (clock time) and why. */
  wait: { until: number; why: string } | undefined;

  reset(label: string, total: number | undefined): void {
    this.label = label;
    this.total = total;
    this.done = 0;
  }

  count(event: ClientEvent): void {
    if (event.type !== "answer") return;
    this.requests += 1;
    this.objects += event.items ?? 0;
  }

  /** `reading live state: 12 requests, 340 objects read` or `applying: 3 of 10 actions done`. */
  describe(): string {
    if (this.total !== undefined) {
      return `${this.label}: ${this.done} of ${this.total} ${plural(this.total, "action")} done`;
    }
    const objects =
      this.objects > 0 ? `, ${formatCount(this.objects)} ${plural(this.objects, "object")} read` : "";
    return `${this.label}: ${formatCount(this.requests)} ${plural(this.requests, "request")}${objects}`;
  }
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** The line for a wait, a retry or a slow answer; undefined for events that need no line. */
function eventLine(event: ClientEvent): string | undefined {
  switch (event.type) {
    case "wait":
      // A 429's wait is said by its retry line; the budget's own waits get a line of their own.
      return event.reason === "rate-limit"
        ? `waiting ${seconds(event.ms)} for the service's rate limit`
        : undefined;
    case "retry": {
      const what = event.status !== undefined ? `answered ${event.status}` : `got no answer (${event.what})`;
      const limit = event.status === 429 ? " (the service's rate limit)" : "";
      return `${event.method} ${event.path} ${what}, retry ${event.attempt} of ${event.of} in ${seconds(event.inMs)}${limit}`;
    }
    case "slow":
      return `${event.method} ${event.path}: no answer yet after ${seconds(event.elapsedMs)}`;
    default:
      return undefined;
  }
}

/** CI and pipes: plain lines, nothing redrawn. */
class PlainLines implements Progress {
  readonly io: Io;
  readonly #tally = new Tally();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly base: Io,
    private readonly heartbeatMs: number,
  ) {
    this.io = base;
  }

  onEvent(event: ClientEvent): void {
    this.#tally.count(event);
    const line = eventLine(event);
    if (line !== undefined) this.base.stderr.write(`${line}\n`);
  }

  step(label: string, total?: number): void {
    this.#tally.reset(label, total);
    if (this.#timer === undefined) {
      this.#timer = setInterval(
        () => this.base.stderr.write(`still ${this.#tally.describe()}\n`),
        this.heartbeatMs,
      );
      this.#timer.unref?.();
    }
  }

  advance(): void {
    this.#tally.done += 1;
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** A terminal: one line, redrawn in place, cleared around every other output. */
class LiveLine implements Progress {
  readonly io: Io;
  readonly #tally = new Tally();
  #shown = false;
  #stopped = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly base: Io) {
    const around = (out: Output): Output => ({
      ...(out.isTTY !== undefined ? { isTTY: out.isTTY } : {}),
      write: (text: string) => {
        this.#clear();
        out.write(text);
        this.#draw();
      },
    });
    this.io = { ...base, stdout: around(base.stdout), stderr: around(base.stderr) };
  }

  onEvent(event: ClientEvent): void {
    this.#tally.count(event);
    if (event.type === "wait" || (event.type === "retry" && event.status === 429)) {
      const ms = event.type === "wait" ? event.ms : event.inMs;
      const why =
        event.type === "wait" && event.reason === "rate-limit"
          ? "for the service's rate limit"
          : "as the service asked (429)";
      this.#tally.wait = { until: this.base.clock.now() + ms, why };
    } else if (event.type === "retry" || event.type === "slow") {
      // Not a wait, but worth a line that stays: it scrolls up above the live line.
      const line = eventLine(event);
      if (line !== undefined) this.io.stderr.write(`${line}\n`);
    }
    this.#draw();
  }

  step(label: string, total?: number): void {
    this.#tally.reset(label, total);
    // A countdown needs a tick even when no request answers.
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#draw(), 1000);
      this.#timer.unref?.();
    }
    this.#draw();
  }

  advance(): void {
    this.#tally.done += 1;
    this.#draw();
  }

  stop(): void {
    this.#clear();
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #draw(): void {
    if (this.#stopped || this.#tally.label === "") return;
    let text = this.#tally.describe();
    const wait = this.#tally.wait;
    const left = wait ? wait.until - this.base.clock.now() : 0;
    if (wait && left > 0) text += ` · waiting ${seconds(left)} ${wait.why}`;
    else this.#tally.wait = undefined;
    const width = Math.max(20, (this.base.stderr.columns ?? 80) - 1);
    text = cut(text, width);
    this.base.stderr.write(`${ERASE_LINE}${text}`);
    this.#shown = true;
  }

  #clear(): void {
    if (!this.#shown) return;
    this.base.stderr.write(ERASE_LINE);
    this.#shown = false;
  }
}
