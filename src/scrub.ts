/**
 * Output never holds a secret (SPEC §8). A run's `Scrubber` knows the API key and every secret value the
 * run resolved, and replaces each with `(secret from $NAME)` wherever it appears: as written, JSON-escaped
 * (once and twice), URL-encoded, and line by line for a value of several lines (a private key). Values
 * shorter than MIN_SECRET_LENGTH are left alone: they would match ordinary words and numbers of the
 * output, and are too short to be a credential worth hiding.
 *
 * It reads text as its reader will (reading.ts): a secret the output escaped (markdown's `&#95;` for
 * `_`, a backslash, `%5F`, zero-width characters or empty HTML comments between its characters) is
 * hidden too. And a cut, which the tool always marks with `…` (CUT), is read like the end of a
 * stream: text just before it that could be the start of a secret (CUT_PREFIX characters or more) is
 * hidden, so no prefix of a secret survives a cut that came before the scrubbing. The rule is still to
 * scrub first: a command hands its renderers values that went through `scrubValue`, so they escape and
 * cut only scrubbed text; reading and cut marks are the net for what forgets it.
 *
 * `scrubbingIo` applies it at the Io boundary, where no code path can forget it: stdout and stderr are
 * streams that hold back the end of a write that could be the start of a secret (so a secret split across
 * writes is still found), and that also neutralise control characters (only the tool's own colour and
 * erase-line sequences pass, and only to a terminal), bidirectional controls and zero-width characters,
 * so no service text can drive the terminal or reorder a line. Files the tool writes go through
 * `scrubText`.
 */
import type { Io, Output, SecretScrubber } from "./io.js";
import { MAY_ESCAPE, openEscapeAtEnd, reading, readText } from "./reading.js";
import { CUT, escapeChar, INVISIBLE } from "./text.js";

export const MIN_SECRET_LENGTH = 6;

/** The shortest start of a secret hidden before a cut: shorter ones tell nothing (`phx`). */
export const CUT_PREFIX = 4;

/** How many characters one character may take when escaped (`&DiacriticalGrave;` for a backtick). */
const ESCAPED_WIDTH = 20;

/**
 * The shortest run of letters and digits that marks where a secret may be, escaped. No format the tool
 * writes escapes a letter or a digit, nor puts anything between two of them (a zero-width space that
 * breaks a mention goes after the `@`), so a secret's longest run of them shows as written, escaped or
 * not: text is read (reading.ts) only around such a run.
 */
const ANCHOR = 4;

/** The label the API key is replaced by. */
export const API_KEY_LABEL = "(secret from $POSTHOG_API_KEY)";

export class Scrubber implements SecretScrubber {
  /** Text to hide → what is shown instead. */
  readonly #labels = new Map<string, string>();
  #pattern: RegExp | undefined;
  #first: RegExp | undefined;
  /**
   * Every proper start of every form (what the end of a write may be), with the label of a secret it
   * starts, and the longest form's length.
   */
  readonly #starts = new Map<string, string>();
  readonly #firsts = new Set<number>();
  #longest = 0;
  /** Each form's longest run of letters and digits (ANCHOR or more), and whether a form has none. */
  readonly #anchors = new Set<string>();
  #anchorPattern: RegExp | undefined;
  #unanchored = false;

  /** Hides `value` from now on, shown as `label`; a short or absent value is ignored. */
  add(value: string | undefined, label: string): this {
    if (value === undefined) return this;
    const forms = new Set<string>();
    for (const v of new Set([value, value.trim()])) {
      const json = JSON.stringify(v).slice(1, -1);
      forms.add(v).add(json).add(JSON.stringify(json).slice(1, -1)).add(encodeURIComponent(v));
      if (/[\r\n]/.test(v)) for (const line of v.split(/\r?\n|\r/)) forms.add(line.trim());
    }
    for (const form of forms) {
      if (form.length >= MIN_SECRET_LENGTH && !this.#labels.has(form)) {
        this.#labels.set(form, label);
        this.#pattern = undefined;
        this.#first = undefined;
        for (let end = 1; end < form.length; end++) {
          const start = form.slice(0, end);
          if (!this.#starts.has(start)) this.#starts.set(start, label);
        }
        this.#firsts.add(form.charCodeAt(0));
        this.#longest = Math.max(this.#longest, form.length);
        const anchor = (form.match(/[A-Za-z0-9]+/g) ?? []).reduce(
          (a, b) => (b.length > a.length ? b : a),
          "",
        );
        if (anchor.length >= ANCHOR) this.#anchors.add(anchor);
        else this.#unanchored = true;
        this.#anchorPattern = undefined;
      }
    }
    return this;
  }

  get size(): number {
    return this.#labels.size;
  }

  /** One alternation of every form, longest first (so the longer of two overlapping secrets wins). */
  #regex(): RegExp {
    this.#pattern ??= new RegExp(
      [...this.#labels.keys()]
        .sort((a, b) => b.length - a.length)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("|"),
      "g",
    );
    return this.#pattern;
  }

  /**
   * `text` with every known secret replaced: as written, then as read (escapes undone), then just
   * before each cut. Each pass leaves the labels alone (a label is never scanned again).
   */
  scrub(text: string): string {
    if (this.#labels.size === 0) return text;
    const written = text.replace(this.#regex(), (found) => this.#labels.get(found) ?? found);
    const read = MAY_ESCAPE.test(written) ? this.#scrubReading(written) : written;
    return read.includes(CUT) ? this.#scrubCuts(read) : read;
  }

  /**
   * `text` with every secret its reading holds replaced where it is written. Only the stretches of
   * `text` around a secret's anchor (ANCHOR) are read: elsewhere no secret can be, escaped or not.
   */
  #scrubReading(text: string): string {
    if (this.#unanchored) return this.#scrubRead(text);
    const anchors = this.#anchorRegex();
    anchors.lastIndex = 0;
    if (!anchors.test(text)) return text;
    anchors.lastIndex = 0;
    const reach = this.#longest * ESCAPED_WIDTH;
    let out = "";
    let last = 0;
    let from = -1;
    let to = -1;
    const flush = () => {
      if (from < 0) return;
      out += text.slice(last, from) + this.#scrubRead(text.slice(from, to));
      last = to;
    };
    for (const match of text.matchAll(anchors)) {
      const start = Math.max(last, match.index - reach);
      const end = Math.min(text.length, match.index + match[0].length + reach);
      if (from >= 0 && start <= to) to = Math.max(to, end);
      else {
        flush();
        from = start;
        to = end;
      }
    }
    flush();
    return last === 0 ? text : out + text.slice(last);
  }

  /** Every anchor in one alternation. */
  #anchorRegex(): RegExp {
    this.#anchorPattern ??= new RegExp([...this.#anchors].sort((a, b) => b.length - a.length).join("|"), "g");
    return this.#anchorPattern;
  }

  /** `text` read whole, with every secret its reading holds replaced where it is written. */
  #scrubRead(text: string): string {
    // Mostly there is none: one pass to read the text, one search, and nothing else is built.
    const shown = readText(text);
    if (shown === text || shown.search(this.#single()) < 0) return text;
    const read = reading(text);
    let out = "";
    let last = 0;
    for (const match of read.text.matchAll(this.#regex())) {
      const start = read.start(match.index);
      const end = read.end(match.index + match[0].length - 1);
      if (start < last) continue;
      out += `${text.slice(last, start)}${this.#labels.get(match[0]) ?? ""}`;
      last = end;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  /** The alternation of every form, without the global flag (for `search` and `match`). */
  #single(): RegExp {
    this.#first ??= new RegExp(this.#regex().source);
    return this.#first;
  }

  /** `text` with the start of a secret just before a cut (`…`) replaced by that secret's label. */
  #scrubCuts(text: string): string {
    let out = "";
    let last = 0;
    for (let at = text.indexOf(CUT); at >= 0; at = text.indexOf(CUT, at + 1)) {
      const before = text.slice(last, at);
      const start = this.#startAtEnd(before);
      out += start
        ? `${before.slice(0, before.length - start.length)}${start.label}${CUT}`
        : `${before}${CUT}`;
      last = at + CUT.length;
    }
    return out + text.slice(last);
  }

  /**
   * The longest end of `text` that is, as written or as read, a proper start of a secret of at least
   * CUT_PREFIX characters (an escape cut in two included): its length as written, and the secret's label.
   */
  #startAtEnd(text: string): { length: number; label: string } | undefined {
    const found = this.#startOf(text, CUT_PREFIX);
    if (found) return found;
    const tail = text.slice(-(this.#longest * ESCAPED_WIDTH));
    const open = openEscapeAtEnd(tail);
    const whole = tail.slice(0, tail.length - open);
    const read = readText(whole) !== whole ? reading(whole) : undefined;
    if (read === undefined) {
      const raw = open > 0 ? this.#startOf(whole, CUT_PREFIX) : undefined;
      return raw ? { length: raw.length + open, label: raw.label } : undefined;
    }
    const start = this.#startOf(read.text, CUT_PREFIX);
    if (!start) return undefined;
    return { length: tail.length - read.start(read.text.length - start.length), label: start.label };
  }

  /** The longest end of `text`, `atLeast` characters or more, that is a proper start of a form. */
  #startOf(text: string, atLeast: number): { length: number; label: string } | undefined {
    for (let i = Math.max(0, text.length - this.#longest + 1); i <= text.length - atLeast; i++) {
      if (!this.#firsts.has(text.charCodeAt(i))) continue;
      const label = this.#starts.get(text.slice(i));
      if (label !== undefined) return { length: text.length - i, label };
    }
    return undefined;
  }

  /** The label of the first secret `text` holds anywhere (as `scrub` would find it); undefined if none. */
  secretIn(text: string): string | undefined {
    if (this.#labels.size === 0) return undefined;
    const found = text.match(this.#single());
    return found ? this.#labels.get(found[0]) : undefined;
  }

  /** How many characters at the end of `text` could be the start of a secret (a stream holds them back). */
  pending(text: string): number {
    // The longest end of `text` that is a proper start of a secret: one map lookup per position of the
    // last (longest secret - 1) characters, however many secrets there are.
    return this.#startOf(text, 1)?.length ?? 0;
  }
}

/**
 * The length of the longest end of `text` that is a proper start of `whole`, if longer than `atLeast`
 * (else 0): `startOfAtEnd("…phx_a", "phx_abc")` is 5.
 */
function startOfAtEnd(text: string, whole: string, atLeast: number): number {
  const first = whole.charCodeAt(0);
  for (let i = Math.max(0, text.length - whole.length + 1); i < text.length - atLeast; i++) {
    if (text.charCodeAt(i) === first && whole.startsWith(text.slice(i))) return text.length - i;
  }
  return 0;
}

/**
 * The terminal sequences the tool writes itself (node:util styleText's colours and weights, and the
 * progress line's erase-line), passed to a terminal only; CRLF (CSV's line end) everywhere. Every
 * other control character, and every bidirectional control and zero-width character, is shown as
 * `\uXXXX`.
 */
const LINE_END = ["\r\n"];
const OWN_SEQUENCES = [
  ...LINE_END,
  "\r\u001b[2K",
  "\u001b[2K",
  ...[1, 2, 22, 31, 32, 33, 36, 39].map((n) => `\u001b[${n}m`),
];
const controls = (kept: readonly string[]) =>
  new RegExp(
    `${kept.map((s) => s.replace(/\[/g, "\\[")).join("|")}|[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`,
    "gu",
  );
const WITH_OWN = controls(OWN_SEQUENCES);
const LINE_END_ONLY = controls(LINE_END);

/**
 * `text[0, end)` with control characters shown as `\uXXXX`, except CRLF, and the tool's own sequences
 * when `own` (a terminal, or colour forced); what a sequence is decides on the whole `text`, so one
 * that `end` cuts in two is still kept.
 */
export function neutralise(text: string, end = text.length, own = true): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(own ? WITH_OWN : LINE_END_ONLY)) {
    if (match.index >= end) break;
    if (match[0].length > 1) continue;
    out += `${text.slice(last, match.index)}${escapeChar(match[0])}`;
    last = match.index + 1;
  }
  return out + text.slice(last, end);
}

/** How many characters at the end of `text` could be the start of a sequence `neutralise` keeps. */
function pendingSequence(text: string, own: boolean): number {
  let held = 0;
  for (const sequence of own ? OWN_SEQUENCES : LINE_END) {
    held = Math.max(held, startOfAtEnd(text, sequence, held));
  }
  return held;
}

export interface ScrubbedOutput extends Output {
  /** Writes what was held back (the run is over, or a prompt is about to be shown). */
  flush(): void;
}

/**
 * `out` through the scrubber: secrets replaced, control characters neutralised, nothing split. The
 * tool's own colour and erase-line codes pass only when `own` (the stream is a terminal, or colour is
 * forced): elsewhere (CI logs, pipes, files) every control character but newline and tab is shown.
 */
export function scrubbedOutput(out: Output, scrubber: Scrubber, own = true): ScrubbedOutput {
  let held = "";
  const emit = (text: string, end: number) => {
    const clean = neutralise(text, end, own);
    if (clean !== "") out.write(clean);
  };
  return {
    write(text: string) {
      const all = scrubber.scrub(held + text);
      const hold = Math.max(scrubber.pending(all), pendingSequence(all, own));
      held = all.slice(all.length - hold);
      emit(all, all.length - hold);
    },
    flush() {
      const rest = held;
      held = "";
      emit(rest, rest.length);
    },
    get isTTY() {
      return out.isTTY;
    },
    get columns() {
      return out.columns;
    },
  };
}

/**
 * An Io whose output is scrubbed, and the way to flush it; the Io carries its scrubber for file writes.
 * `colourForced`: the tool's own colour codes also pass to an output that is not a terminal.
 */
export function scrubbingIo(io: Io, colourForced = false): { io: Io; flush(): void } {
  const scrubber = new Scrubber().add(io.env.POSTHOG_API_KEY, API_KEY_LABEL);
  const own = (out: Output) => out.isTTY === true || colourForced;
  const stdout = scrubbedOutput(io.stdout, scrubber, own(io.stdout));
  const stderr = scrubbedOutput(io.stderr, scrubber, own(io.stderr));
  const flush = () => {
    stdout.flush();
    stderr.flush();
  };
  const scrubbed: Io = { ...io, stdout, stderr, scrubber };
  const onTerminate = io.onTerminate;
  if (onTerminate) {
    // At the second Ctrl-C the process ends at once: write what is held back first. The command's own
    // handler hears only the first request.
    scrubbed.onTerminate = (handler) =>
      onTerminate((signal, last) => {
        if (last) flush();
        else handler(signal);
      });
  }
  const confirm = io.confirm;
  if (confirm) {
    scrubbed.confirm = (question) => {
      flush();
      return confirm(scrubber.scrub(question));
    };
  }
  return { io: scrubbed, flush };
}

/** Text for a file the tool writes: scrubbed with the run's scrubber (when the run has one). */
export function scrubText(io: Io, text: string): string {
  return io.scrubber ? io.scrubber.scrub(text) : text;
}

/**
 * A copy of `value` (JSON-like) with every string and key scrubbed, and every number whose text holds a
 * secret replaced by the secret's label (a number is written as its text: 73519284 is a secret's text
 * as much as "73519284"): for the plan inside a saved plan,
 * whose other parts (host, paths, targets, ids, digests) are the user's own words or the tool's and are
 * written as they are, so that `apply --plan` reads back what it needs. `apply --plan` compares the plan
 * it derives again through this same function, so a value that only happens to contain a secret's text
 * ("Weekly analytics review", a database user `analytics`) reads the same on both sides.
 */
export function scrubValue<T>(io: Io, value: T): T {
  const scrubber = io.scrubber;
  if (!scrubber) return value;
  const copy = (v: unknown): unknown => {
    if (typeof v === "string") return scrubber.scrub(v);
    if (typeof v === "number" || typeof v === "bigint") {
      const text = String(v);
      const scrubbed = scrubber.scrub(text);
      return scrubbed === text ? v : scrubbed;
    }
    if (Array.isArray(v)) return v.map(copy);
    if (isPlain(v)) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [scrubber.scrub(k), copy(item)]));
    }
    return v;
  };
  return copy(value) as T;
}

/**
 * A plain object (data), as opposed to an instance that prints itself (a `SecretValue` prints its
 * description, never its value) and is left as it is.
 */
function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The label of a secret that any string or key of `value` (JSON-like) holds; undefined when none. */
export function secretInValue(io: Io, value: unknown): string | undefined {
  const scrubber = io.scrubber;
  if (!scrubber) return undefined;
  const find = (v: unknown): string | undefined => {
    if (typeof v === "string") return scrubber.secretIn(v);
    if (typeof v === "number" || typeof v === "bigint") return scrubber.secretIn(String(v));
    if (Array.isArray(v)) {
      for (const item of v) {
        const found = find(item);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (typeof v === "object" && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        const found = scrubber.secretIn(key) ?? find(item);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return find(value);
}
