/**
 * The scrubber on its own: every form of a secret is replaced, short values are left alone, and a
 * stream cannot be made to pass a secret by splitting it across writes (a property over every split).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Output } from "../../src/io.js";
import { readText } from "../../src/reading.js";
import {
  MIN_SECRET_LENGTH,
  neutralise,
  Scrubber,
  scrubbedOutput,
  scrubbingIo,
  scrubValue,
  secretInValue,
} from "../../src/scrub.js";
import { cut, visible } from "../../src/text.js";
import { memoryIo } from "../support/io.js";

const SECRET = 'pa"ss\\wörd/+ 42';
const LABEL = "(secret from $PG_PASSWORD)";

function recorder(): Output & { text: string } {
  const out = {
    text: "",
    write(t: string) {
      out.text += t;
    },
  };
  return out;
}

describe("Scrubber", () => {
  const scrubber = new Scrubber().add(SECRET, LABEL);

  it("replaces the value as written, JSON-escaped once and twice, and URL-encoded", () => {
    const json = JSON.stringify({ detail: `password '${SECRET}' is wrong` });
    const twice = JSON.stringify({ body: json });
    const url = `https://x.example/?p=${encodeURIComponent(SECRET)}`;
    for (const text of [`raw ${SECRET}!`, json, twice, url]) {
      const clean = scrubber.scrub(text);
      expect(clean).toContain(LABEL);
      expect(clean).not.toContain("wörd");
      expect(clean).not.toContain("w%C3%B6rd");
      expect(clean).not.toContain("w\\u00f6rd");
    }
    expect(JSON.parse(scrubber.scrub(json)).detail).toBe(`password '${LABEL}' is wrong`);
  });

  it("replaces each line of a value of several lines (a private key written as a YAML block)", () => {
    const key =
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END";
    const s = new Scrubber().add(key, "(secret from $BQ_KEY)");
    const yaml = `private_key: |\n    ${key.split("\n").join("\n    ")}\n`;
    expect(s.scrub(yaml)).not.toMatch(/MIIEvQ|BKcwgg/);
    expect(s.scrub(JSON.stringify(key))).toBe('"(secret from $BQ_KEY)"');
  });

  it(`leaves values shorter than ${MIN_SECRET_LENGTH} characters alone, and never rescans a label`, () => {
    const s = new Scrubber().add("1", "(secret from $A)").add("", "(secret from $B)").add("abcde", "(x)");
    expect(s.size).toBe(0);
    expect(s.scrub("1 abcde")).toBe("1 abcde");
    // "secret" is inside every label: one pass means labels are not scrubbed again.
    const t = new Scrubber().add("secret", "(secret from $S)").add("from $S", "(secret from $T)");
    expect(t.scrub("a secret")).toBe("a (secret from $S)");
  });

  it("prefers the longer of two overlapping secrets", () => {
    const s = new Scrubber().add("abcdef", "(secret from $SHORT)").add("abcdefghij", "(secret from $LONG)");
    expect(s.scrub("xabcdefghijx abcdefx")).toBe("x(secret from $LONG)x (secret from $SHORT)x");
  });

  it("finds a secret that starts inside another secret's run of letters (where reading starts)", () => {
    const s = new Scrubber().add("phx_abcdefgh", "(secret from $A)").add("cdefgh_zz9", "(secret from $B)");
    expect(s.scrub("x abcdefgh_zz9 y")).toBe("x ab(secret from $B) y");
    expect(s.scrub("x abcdefgh&#95;zz9 y")).toBe("x ab(secret from $B) y");
    expect(s.scrub("phx&#95;abcdefgh")).toBe("(secret from $A)");
  });

  it("scrubs values and keys of a structure, leaving the rest as it is", () => {
    const { io } = scrubbingIo(memoryIo({ POSTHOG_API_KEY: "phx_key_0123456789" }).io);
    expect(scrubValue(io, { a: ["x phx_key_0123456789", 3, null], phx_key_0123456789: true })).toEqual({
      a: ["x (secret from $POSTHOG_API_KEY)", 3, null],
      "(secret from $POSTHOG_API_KEY)": true,
    });
  });

  it("scrubs numbers whose text is a secret's, so a saved plan holds no secret number", () => {
    const { io } = scrubbingIo(memoryIo({}).io);
    io.scrubber?.add("73519284", "(encrypted payload true of feature flag f)");
    expect(scrubValue(io, { pin: 73519284, rollout: 40, pins: [1, 73519284] })).toEqual({
      pin: "(encrypted payload true of feature flag f)",
      rollout: 40,
      pins: [1, "(encrypted payload true of feature flag f)"],
    });
    expect(secretInValue(io, { a: [73519284] })).toBe("(encrypted payload true of feature flag f)");
    expect(secretInValue(io, { a: [7351928] })).toBeUndefined();
  });

  it("names the secret a value holds anywhere, in any string or key", () => {
    const { io } = scrubbingIo(memoryIo({ POSTHOG_API_KEY: "phx_key_0123456789" }).io);
    io.scrubber?.add("analytics", "(secret from $PG_USER)");
    expect(secretInValue(io, { name: "Weekly review", tags: ["a"], n: 3 })).toBeUndefined();
    expect(secretInValue(io, { name: "Weekly analytics review" })).toBe("(secret from $PG_USER)");
    expect(secretInValue(io, { config: { user: "analytics" } })).toBe("(secret from $PG_USER)");
    expect(secretInValue(io, ["x phx_key_0123456789"])).toBe("(secret from $POSTHOG_API_KEY)");
    expect(secretInValue(io, { analytics: 1 })).toBe("(secret from $PG_USER)");
    // Twice in a row: the search keeps no state between calls.
    expect(io.scrubber?.secretIn("an analytics board")).toBe("(secret from $PG_USER)");
    expect(io.scrubber?.secretIn("an analytics board")).toBe("(secret from $PG_USER)");
  });
});

describe("what the reader reads", () => {
  const key = "phx_Ab1*Cd2[x]~Q";
  const s = new Scrubber().add(key, API_LABEL);
  const entity = (c: string) => `&#${c.charCodeAt(0)};`;

  it("hides a secret however an output escaped it: entities, backslashes, JSON, URL encoding", () => {
    const forms = [
      key.replace(/[_*[\]~]/g, entity),
      key.replace(/[_*[\]~]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`),
      key.replace(/[_*[\]~]/g, (c) => `&#x0${c.charCodeAt(0).toString(16)};`),
      key.replace("_", "&lowbar;").replace("*", "&ast;").replace("[", "&lsqb;").replace("]", "&rbrack;"),
      key.replace(/[_*[\]~]/g, (c) => `\\${c}`),
      key.replace("_", "\\u005f"),
      key.replace("_", "%5F").replace("*", "%2a"),
      // Mixed, and with what renders as nothing between its characters.
      `phx&#95;Ab1\\*<!-- -->Cd2[x]\u200b~Q`,
    ];
    for (const form of forms) {
      expect(s.scrub(`<b>Leak ${form} here</b>`), form).toBe(`<b>Leak ${API_LABEL} here</b>`);
    }
  });

  it("hides a secret escaped character by character in any mix of forms, and only it (property)", () => {
    // As the tool's formats escape: never a letter or a digit, and nothing between two of them.
    const forms = [
      (c: string) => c,
      (c: string) => `&#${c.charCodeAt(0)};`,
      (c: string) => `&#x${c.charCodeAt(0).toString(16)};`,
      (c: string) => (/[!-/:-@[-`{-~]/.test(c) ? `\\${c}` : c),
      (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
      (c: string) => `${c}<!-- -->`,
      (c: string) => `${c}&#8203;`,
    ];
    const ascii = fc.string({ unit: fc.constantFrom(..."abcXYZ019_*-/.[]~"), minLength: 8, maxLength: 24 });
    const around = fc.array(fc.constantFrom("a", " ", "&amp;", "&lt;b&gt;", "\\n", "%20", "x"), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(
        ascii,
        fc.array(fc.nat(forms.length - 1), { minLength: 24, maxLength: 24 }),
        around,
        around,
        (secret, picks, before, after) => {
          const scrubber = new Scrubber().add(secret, "(secret from $S)");
          // Between its characters, also what renders as nothing (not after the last one: not part of it).
          const last = secret.length - 1;
          const escaped = [...secret]
            .map((c, i) =>
              /[A-Za-z0-9]/.test(c)
                ? c
                : (forms[(picks[i] ?? 0) % (i === last ? 6 : forms.length)]?.(c) ?? c),
            )
            .join("");
          const text = `${before.join("")}[${escaped}]${after.join("")}`;
          // Compared as the reader reads both: a secret whose first character was backslash-escaped is
          // also found as written, after its backslash (`\~secret` → `\(secret from $S)`, read `(…`).
          expect(readText(scrubber.scrub(text))).toBe(
            readText(`${before.join("")}[(secret from $S)]${after.join("")}`),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves escapes that do not read as a secret as they are", () => {
    const text = "a &amp; b &#95;x\\_y 100%25 &unknown; \\n &#95";
    expect(s.scrub(text)).toBe(text);
  });

  it("hides the start of a secret that a cut (…) left, as written or escaped, even in the middle of an escape", () => {
    expect(s.scrub("name phx_Ab1*C…")).toBe(`name ${API_LABEL}…`);
    expect(s.scrub("name phx&#95;Ab1&#42;…")).toBe(`name ${API_LABEL}…`);
    expect(s.scrub("name phx&#95;Ab1&#4…")).toBe(`name ${API_LABEL}…`);
    expect(s.scrub("name phx_Ab1\\…")).toBe(`name ${API_LABEL}…`);
    // Three characters tell nothing; text that starts no secret, and a cut of nothing, stay.
    expect(s.scrub("name phx…")).toBe("name phx…");
    expect(s.scrub("- …and 3 more; plan… done")).toBe("- …and 3 more; plan… done");
    expect(s.scrub(cut(`${"N".repeat(20)} ${key}`, 30))).toBe(`${"N".repeat(20)} ${API_LABEL}…`);
  });

  it("cuts text with one mark, never between the halves of a character", () => {
    expect(cut("abcdef", 6)).toBe("abcdef");
    expect(cut("abcdef", 4)).toBe("abc…");
    expect(cut("ab😀cd", 4)).toBe("ab…");
    expect(cut("ab😀cd", 5)).toBe("ab😀…");
  });

  it("shows bidirectional controls and zero-width characters as escapes, in text and in streams", () => {
    const evil = "a\u202eb\u2066c\u200bd\ufeffe\u200ff";
    expect(visible(evil)).toBe("a\\u202eb\\u2066c\\u200bd\\ufeffe\\u200ff");
    expect(neutralise(evil)).toBe(visible(evil));
    const out = recorder();
    const stream = scrubbedOutput(out, new Scrubber());
    stream.write(`${JSON.stringify({ name: evil })}\n`);
    stream.flush();
    // Still JSON, naming the same characters.
    expect(JSON.parse(out.text).name).toBe(evil);
    expect(out.text).not.toMatch(/[\u202e\u2066\u200b\ufeff\u200f]/);
  });
});

describe("a scrubbed stream", () => {
  it("never passes a secret, however the writes split it (property)", () => {
    const secret = fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 40 });
    fc.assert(
      fc.property(
        secret,
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (value, before, after, cuts) => {
          const scrubber = new Scrubber().add(value, "(secret from $S)");
          const out = recorder();
          const stream = scrubbedOutput(out, scrubber);
          const text = `${before}${value}${after}\n`;
          const points = [...new Set(cuts.map((c) => c % text.length))].sort((a, b) => a - b);
          let last = 0;
          for (const p of [...points, text.length]) {
            stream.write(text.slice(last, p));
            last = p;
          }
          stream.flush();
          expect(out.text).toContain("(secret from $S)");
          // Nothing of the secret is left: neither it nor its trimmed form (also hidden).
          const rest = out.text.replaceAll("(secret from $S)", "\0");
          for (const form of [value, value.trim()].filter((f) => f.length >= MIN_SECRET_LENGTH)) {
            expect(rest).not.toContain(neutralise(form));
          }
          // Unless the secret is cut where a shorter form of it ends, that is all that changed.
          if (value === value.trim()) expect(out.text).toBe(neutralise(scrubber.scrub(text)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("holds back no more than a possible start of a secret: other text is written at once", () => {
    const out = recorder();
    const stream = scrubbedOutput(out, new Scrubber().add("phx_abcdef123", API_LABEL));
    stream.write("reading live state: 3 requests");
    expect(out.text).toBe("reading live state: 3 requests");
    stream.write(" key phx_abc");
    expect(out.text).toBe("reading live state: 3 requests key ");
    stream.write("def123 done\n");
    expect(out.text).toBe(`reading live state: 3 requests key ${API_LABEL} done\n`);
  });

  it("keeps the tool's own colour and erase-line codes, and shows every other control character", () => {
    const out = recorder();
    const stream = scrubbedOutput(out, new Scrubber());
    stream.write("\r\u001b[2Kreading\u001b[");
    stream.write("32mok\u001b[39m\r\n");
    stream.write('name "x\u001b]0;pwned\u0007\u009b31m\rmore"\n');
    stream.flush();
    expect(out.text).toBe(
      '\r\u001b[2Kreading\u001b[32mok\u001b[39m\r\nname "x\\u001b]0;pwned\\u0007\\u009b31m\\u000dmore"\n',
    );
  });

  it("flushes held text before a prompt, and scrubs the question", async () => {
    const mem = memoryIo({ POSTHOG_API_KEY: "phx_abcdef123" });
    let seen = "";
    mem.io.confirm = async (q) => {
      seen = `${mem.stderr}|${q}`;
      return "yes";
    };
    const { io } = scrubbingIo(mem.io);
    io.stderr.write("Plan: phx_");
    await io.confirm?.("Apply with phx_abcdef123?");
    expect(seen).toBe(`Plan: phx_|Apply with ${API_LABEL}?`);
  });

  it("writes held text when a second stop request is about to end the process; the command hears only the first", () => {
    const mem = memoryIo({ POSTHOG_API_KEY: "phx_abcdef123" });
    let listener: ((signal: "SIGINT" | "SIGTERM", last?: boolean) => void) | undefined;
    mem.io.onTerminate = (handler) => {
      listener = handler;
      return () => {};
    };
    const { io } = scrubbingIo(mem.io);
    const heard: string[] = [];
    io.onTerminate?.((signal) => heard.push(signal));
    io.stderr.write("Stopping: 2 done, waiting on phx_");
    listener?.("SIGINT");
    expect(heard).toEqual(["SIGINT"]);
    expect(mem.stderr).toBe("Stopping: 2 done, waiting on ");
    listener?.("SIGINT", true);
    expect(heard).toEqual(["SIGINT"]);
    expect(mem.stderr).toBe("Stopping: 2 done, waiting on phx_");
  });
});

const API_LABEL = "(secret from $POSTHOG_API_KEY)";
