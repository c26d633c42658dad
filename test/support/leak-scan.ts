/**
 * The test suites' leak scan (SPEC §8 "Output"): every CLI run of a test (in-process or spawned) is
 * recorded with the environment it got, and after the test its stdout, its stderr and every file left
 * in the test's folder are searched for the API key and every secret value the test used. The
 * emulator harness (emulator.ts) runs it after each test; a hit fails that test, naming the run and
 * the variable.
 *
 * A secret is looked for as its readers would meet it: the text as written and with each output
 * format's escapes undone (HTML character references, markdown backslash escapes, JSON escapes, URL
 * encoding; zero-width characters and empty HTML comments dropped), and not only whole: any slice of
 * SLICE characters of a secret is a leak too, so a secret cut short before it was scrubbed is found.
 *
 * What counts as a secret is decided here, apart from the tool: every variable a run was given, except
 * the connection and CI variables below and the names a file lists under `variables:` (values meant to
 * be printed); plus the emulator's own stored credentials and encrypted payload. Values shorter than the tool's minimum
 * (MIN_SECRET_LENGTH) are not searched for: the tool leaves them alone on purpose.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SAMPLE_ENCRYPTED_PAYLOAD, SEED_CREDENTIALS } from "posthog-gitops-emulator";
import { parseAllDocuments } from "yaml";
import { NAMED } from "../../src/reading.js";
import { MIN_SECRET_LENGTH } from "../../src/scrub.js";

export interface RecordedRun {
  label: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout: string;
  stderr: string;
}

export interface Leak {
  /** The run (`stdout of plan p`) or the file (`file saved.json`) that holds it. */
  where: string;
  /** Which secret: the variable, or the emulator's credential. */
  what: string;
}

/** Variables that hold no secret: where to connect, what to read, how CI and git are set up. */
const NOT_SECRET =
  /^(POSTHOG_(HOST|PROJECT_ID|RATE_LIMIT)|POSTHOG_GITOPS_.*|GITHUB_.*|GIT_.*|RUNNER_.*|NO_COLOR|FORCE_COLOR|TERM|TZ|HOME|PATH|CI)$/;

/** The credentials the emulator's default seed stores: the service must never show them either. */
const EMULATOR_SECRETS: Record<string, string> = {
  "the emulator's S3 secret key": SEED_CREDENTIALS.s3SecretKey,
  "the emulator's S3 access key": SEED_CREDENTIALS.s3AccessKey,
  "the emulator's Postgres password": SEED_CREDENTIALS.postgresPassword,
  // The plain text of the seed flag's encrypted payload (a personal key reads it): never in an output.
  "the emulator's encrypted flag payload": JSON.parse(SAMPLE_ENCRYPTED_PAYLOAD).discount_code,
  // A payload tests store encrypted while their file says the flag is not (DISGUISED_PAYLOAD): its
  // number and its key, the scalars a scan can tell from ordinary text.
  "the disguised payload's number": "73519284",
  "the disguised payload's key": "zq7pin_vault",
};

/**
 * An encrypted payload made of what a text scrubber finds hardest: a number, an object key, short
 * strings and a boolean. Tests store it on `pricing-config` and declare the flag unencrypted.
 */
export const DISGUISED_PAYLOAD =
  '{"zq7pin_vault": 73519284, "tier": "gold", "on": true, "caps": [4096, "eu"]}';

/** Every file under `dir`, by path relative to it, as text (symbolic links are not files: skipped). */
export function filesUnder(dir: string): Array<[string, string]> {
  const walk = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      const info = lstatSync(path);
      return info.isSymbolicLink() ? [] : info.isDirectory() ? walk(path) : [path];
    });
  return walk(dir).map((path) => [relative(dir, path), readFileSync(path, "utf8")]);
}

/** The names YAML files list under `variables:`: their values are meant to be printed. */
export function declaredVariables(files: ReadonlyArray<[string, string]>): Set<string> {
  const names = new Set<string>();
  for (const [path, text] of files) {
    if (!/\.ya?ml$/.test(path)) continue;
    try {
      for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
        const value = "toJS" in doc ? (doc.toJS() as { variables?: unknown } | null) : null;
        if (Array.isArray(value?.variables)) for (const v of value.variables) names.add(String(v));
      }
    } catch {
      // A file a test made unreadable on purpose (an alias bomb, bad bytes) lists nothing.
    }
  }
  return names;
}

/** The secrets of one run: name → value. */
export function secretsOf(env: RecordedRun["env"], declared: ReadonlySet<string>): Map<string, string> {
  const secrets = new Map(Object.entries(EMULATOR_SECRETS));
  for (const [name, value] of Object.entries(env)) {
    const secret = name === "POSTHOG_API_KEY" || !(NOT_SECRET.test(name) || declared.has(name));
    if (secret && value !== undefined && value.trim().length >= MIN_SECRET_LENGTH)
      secrets.set(`$${name}`, value);
  }
  return secrets;
}

const code = (n: number) => (n <= 0x10ffff ? String.fromCodePoint(n) : "");
/** Characters a reader never sees (and markup that renders as nothing): gone from every reading. */
const UNSEEN = /[\u200b-\u200d\u2060\ufeff]|<!--\s*-->/g;

/**
 * HTML and markdown: character references (a browser also reads them without the `;`). The names
 * (NAMED) are the HTML standard's, a table of facts shared with the tool; how text is read is the
 * scan's own.
 */
const unentity = (t: string) =>
  t.replace(/&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([A-Za-z]+));?/g, (whole, dec, hex, name) =>
    dec !== undefined
      ? code(Number(dec))
      : hex !== undefined
        ? code(Number.parseInt(hex, 16))
        : (NAMED[name] ?? whole),
  );
/** Markdown's backslash escapes of punctuation. */
const unbackslash = (t: string) => t.replace(/\\([!-/:-@[-`{-~])/g, "$1");
/** JSON's escapes. */
const unjson = (t: string) =>
  t.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex) => code(Number.parseInt(hex, 16))).replace(/\\(["\\/])/g, "$1");
/** URL encoding (UTF-8 sequences read whole where they are whole, else byte by byte). */
const unpercent = (t: string) =>
  t.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-7][0-9a-fA-F])/g, (_, hex) => code(Number.parseInt(hex, 16)));
    }
  });

/**
 * The text as its readers may read it: as written, and with each format's escapes undone (one format,
 * or markdown's two together), and each of these with what renders as nothing taken out.
 */
export function readings(text: string): string[] {
  const all = [
    text,
    unentity(text),
    unbackslash(text),
    unentity(unbackslash(text)),
    unbackslash(unentity(text)),
    unjson(text),
    unpercent(text),
  ];
  return [...new Set(all.flatMap((t) => [t, t.replace(UNSEEN, "")]))];
}

/** A piece of a secret this long is a leak wherever it shows (a secret cut short is one). */
export const SLICE = 8;

/** What to look for of one secret: its forms as written and JSON-escaped, and every slice of SLICE. */
function needles(value: string): string[] {
  const whole = value.trim();
  const forms = [value, whole, JSON.stringify(value).slice(1, -1)].filter(
    (f) => f.length >= MIN_SECRET_LENGTH,
  );
  const slices: string[] = [];
  for (let i = 0; i + SLICE <= whole.length; i++) slices.push(whole.slice(i, i + SLICE));
  return [...new Set([...forms, ...slices])];
}

/** Where `text`, read in any of its readings, holds a secret or a slice of one. */
function hits(text: string, secrets: Map<string, string>): string[] {
  const read = readings(text);
  return [...secrets].flatMap(([what, value]) =>
    needles(value).some((needle) => read.some((r) => r.includes(needle))) ? [what] : [],
  );
}

/**
 * Every leak in the runs and in the files of a test: a run's output is searched for its own secrets; the
 * files, for the secrets of every run (any of them may have written it). `written` holds the files the
 * test itself wrote, by path, with their text: unchanged, they are the test's input, not output.
 */
export function findLeaks(
  runs: readonly RecordedRun[],
  files: ReadonlyArray<[string, string]>,
  written: ReadonlyMap<string, string> = new Map(),
): Leak[] {
  const declared = declaredVariables(files);
  const leaks: Leak[] = [];
  const all = new Map<string, string>();
  for (const run of runs) {
    const secrets = secretsOf(run.env, declared);
    for (const [what, value] of secrets) all.set(what, value);
    for (const [stream, text] of [
      ["stdout", run.stdout],
      ["stderr", run.stderr],
    ] as const) {
      for (const what of hits(text, secrets)) leaks.push({ where: `${stream} of ${run.label}`, what });
    }
  }
  for (const [path, text] of files) {
    if (written.get(path) === text) continue;
    for (const what of hits(text, all)) leaks.push({ where: `file ${path}`, what });
  }
  return leaks;
}

export function describeLeaks(leaks: readonly Leak[]): string {
  return `secrets in the output (leak scan, test/support/leak-scan.ts):\n${leaks
    .map((l) => `  ${l.where} holds ${l.what}`)
    .join("\n")}`;
}
