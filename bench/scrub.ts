/**
 * `npm run bench:scrub`: what scrubbing output costs (BENCHMARKS.md, "Scrubbing output costs little").
 * A scrubbed stream (src/scrub.ts `scrubbedOutput`) is fed 100k result lines (about 6.5 MB), one write
 * each, with 10, 300 and 2,000 secrets, and with 10 plus a 2,900-character private key (and then one
 * 5 MB write); then markdown, whose character references make the scrubber read the text as its
 * reader will: 100k markdown lines one write each, and a 5 MB markdown plan in one write. Each figure
 * is the CPU time (user and system) of the best of BENCH_REPEAT runs (default 3), in one process, so
 * that other work on a shared machine counts as little as it can.
 *
 * SCRUB_MODULE=/path/to/scrub.js measures another build of the scrubber (e.g. main's, to compare).
 */
import { pathToFileURL } from "node:url";

type ScrubModule = typeof import("../src/scrub.js");
const module: ScrubModule = await import(
  process.env.SCRUB_MODULE ? pathToFileURL(process.env.SCRUB_MODULE).href : "../src/scrub.js"
);
const { Scrubber, scrubbedOutput } = module;
const repeat = Number(process.env.BENCH_REPEAT ?? "3");

/** Deterministic pseudo-random characters, so every run scrubs the same text. */
let seed = 42;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
function random(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    out += ALPHABET[seed % ALPHABET.length];
  }
  return out;
}

const secrets = (n: number) => Array.from({ length: n }, () => `phx_${random(36)}`);
const privateKey = `-----BEGIN PRIVATE KEY-----\n${Array.from({ length: 44 }, () => random(64)).join("\n")}\n-----END PRIVATE KEY-----`;

const resultLines = Array.from(
  { length: 100_000 },
  (_, i) => `✓ ~ update dashboard "Weekly KPIs ${i}" (id ${i}) in project 12345 · pinned\n`,
);
const markdownLines = Array.from(
  { length: 100_000 },
  (_, i) =>
    `- \`name\`: <b>Weekly&#95;KPIs&#95;${i}</b> &amp; ops@&#8203;acme.com · \`dashboards/kpis.yaml:${i}\`\n`,
);
const big = (lines: readonly string[]) => lines.join("").slice(0, 5_000_000);

function measure(values: readonly string[], writes: readonly string[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < repeat; r++) {
    const scrubber = new Scrubber();
    for (const [i, v] of values.entries()) scrubber.add(v, `(secret from $S${i})`);
    let bytes = 0;
    const sink = {
      write(t: string) {
        bytes += t.length;
      },
    };
    const stream = scrubbedOutput(sink, scrubber, false);
    const started = process.cpuUsage();
    for (const text of writes) stream.write(text);
    stream.flush();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
    if (bytes === 0) throw new Error("nothing was written");
  }
  return best;
}

const mb = (writes: readonly string[]) => (writes.reduce((n, w) => n + w.length, 0) / 1e6).toFixed(1);
const rows: Array<[string, number]> = [
  [`100k result lines (${mb(resultLines)} MB), 10 secrets`, measure(secrets(10), resultLines)],
  ["100k result lines, 300 secrets", measure(secrets(300), resultLines)],
  ["100k result lines, 2,000 secrets", measure(secrets(2000), resultLines)],
  [
    "100k result lines and one 5 MB write, 10 secrets and a 2,900-character private key",
    measure([...secrets(10), privateKey], [...resultLines, big(resultLines)]),
  ],
  [`100k markdown lines (${mb(markdownLines)} MB), 10 secrets`, measure(secrets(10), markdownLines)],
  ["one 5 MB markdown write, 10 secrets", measure(secrets(10), [big(markdownLines)])],
];
for (const [what, ms] of rows) process.stdout.write(`${what}: ${Math.round(ms)} ms\n`);
