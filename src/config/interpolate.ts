/**
 * The one interpolator of `${NAME}` references (SPEC §2), used when files are read (non-secret strings)
 * and when apply builds a request body (secrets, from the plan's `SecretRef`s). `$${` is a literal `${`;
 * a lone `$` is a dollar sign; any other `${` must be a well-formed reference.
 *
 * Who may read what is decided by the callers, with the rules here: a non-secret field may only use names
 * its file lists under `variables:`, and never a name of this tool (`POSTHOG_*`) or one that looks like a
 * credential; a secret field must be exactly one reference, never to this tool's own variables. Lookups
 * read own string properties only, so `${constructor}` or `${__proto__}` can never reach an object's
 * prototype.
 */

export type Env = Readonly<Record<string, string | undefined>>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** A reference found in a template: its variable and where it is (offsets into the text). */
export interface Reference {
  name: string;
  start: number;
  end: number;
}

export type Scanned = { ok: true; references: Reference[] } | { ok: false; problem: string };

/** The `${NAME}` references of a template, in order, or why it is malformed. */
export function scan(text: string): Scanned {
  const references: Reference[] = [];
  if (!text.includes("${")) return { ok: true, references };
  for (let i = 0; i < text.length; ) {
    if (text.startsWith("$${", i)) {
      i += 3;
    } else if (text.startsWith("${", i)) {
      const end = text.indexOf("}", i + 2);
      const name = end < 0 ? "" : text.slice(i + 2, end);
      if (end < 0 || !NAME.test(name)) {
        const shown = text.slice(i, end < 0 ? Math.min(text.length, i + 12) : Math.min(end + 1, i + 40));
        return {
          ok: false,
          problem: `malformed reference "${shown}": write \${NAME} with letters, digits and _ (or $\${ for a literal \${)`,
        };
      }
      references.push({ name, start: i, end: end + 1 });
      i = end + 1;
    } else {
      i += 1;
    }
  }
  return { ok: true, references };
}

export type Interpolated = { ok: true; value: string; missing: string[] } | { ok: false; problem: string };

/**
 * The template with each reference replaced by `lookup(name)` and `$${` by `${`. Names `lookup` does
 * not know are listed in `missing` (their `${NAME}` text is kept) for the caller to judge.
 */
export function interpolate(text: string, lookup: (name: string) => string | undefined): Interpolated {
  if (!text.includes("$")) return { ok: true, value: text, missing: [] };
  const scanned = scan(text);
  if (!scanned.ok) return scanned;
  let out = "";
  let at = 0;
  const missing: string[] = [];
  for (const ref of scanned.references) {
    out += literal(text.slice(at, ref.start));
    const value = lookup(ref.name);
    if (value === undefined) {
      missing.push(ref.name);
      out += text.slice(ref.start, ref.end);
    } else {
      out += value;
    }
    at = ref.end;
  }
  return { ok: true, value: out + literal(text.slice(at)), missing };
}

/** Text between references: only `$${` changes (to `${`). */
function literal(text: string): string {
  return text.replaceAll("$${", () => "${");
}

/** A lookup in `env`: own, non-empty string values only (never anything of Object.prototype). */
export function envLookup(env: Env): (name: string) => string | undefined {
  return (name) => {
    if (!Object.hasOwn(env, name)) return undefined;
    const value = env[name];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
}

/** The variable a secret field refers to, or undefined when the value is not exactly one `${NAME}`. */
export function secretReference(value: unknown): string | undefined {
  return typeof value === "string" ? SECRET_REFERENCE.exec(value)?.[1] : undefined;
}

/** This tool's own variables (`POSTHOG_API_KEY`, `POSTHOG_HOST`, …): they never go into any field. */
export function isToolVariable(name: string): boolean {
  return /^POSTHOG_/i.test(name);
}

/**
 * Names that never reach a non-secret field, even when a file lists them: this tool's own variables and
 * anything that looks like a credential.
 */
export function isCredentialName(name: string): boolean {
  return isToolVariable(name) || /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE|CREDENTIAL/i.test(name);
}

export type Substituted =
  | { ok: true; value: string; missing: string[]; used: string[] }
  | { ok: false; problem: string };

/**
 * The template with the references `lookup` knows replaced by their values, written as a template
 * again: reading it (`interpolate`) gives each value literally, so a `${` inside a value can never
 * become a reference (it is written `$${`). The text between references is kept as written (a `$${`
 * stays one); an unknown reference is kept, or with `escapeMissing` written as the literal text it was
 * (`$${NAME}`), and listed in `missing`.
 */
export function substitute(
  text: string,
  lookup: (name: string) => string | undefined,
  escapeMissing = false,
): Substituted {
  const scanned = scan(text);
  if (!scanned.ok) return scanned;
  let out = "";
  let at = 0;
  const missing: string[] = [];
  const used: string[] = [];
  let dollarEnd = false;
  const put = (piece: string) => {
    // A value ending in `$` before `{` would read as `${`: `$${` is the literal form of those two.
    if (dollarEnd && piece.startsWith("{")) out += "$";
    out += piece;
    dollarEnd = false;
  };
  for (const ref of scanned.references) {
    if (ref.start > at) put(text.slice(at, ref.start));
    const value = lookup(ref.name);
    if (value === undefined) {
      missing.push(ref.name);
      put(escapeMissing ? `$${text.slice(ref.start, ref.end)}` : text.slice(ref.start, ref.end));
    } else {
      used.push(ref.name);
      // A function: in a replacement string, "$$" would mean a single "$".
      put(value.replaceAll("${", () => "$${"));
      dollarEnd = value.endsWith("$");
    }
    at = ref.end;
  }
  if (at < text.length) put(text.slice(at));
  return { ok: true, value: out, missing, used };
}
