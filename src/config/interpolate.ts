/**
 * `${NAME}` references in string values, replaced from an injected environment; `$${` writes a literal
 * `${`. A lone `$` is just a dollar sign. Secret fields are stricter: the whole value must be one
 * reference, so a secret can never be written into Git by accident.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

export type Interpolated = { ok: true; value: string; missing: string[] } | { ok: false; problem: string };

/** Missing variables are listed (the value then keeps their `${NAME}` text) for the caller to judge. */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>): Interpolated {
  if (!text.includes("$")) return { ok: true, value: text, missing: [] };
  let out = "";
  const missing: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("$${", i)) {
      out += "${";
      i += 3;
    } else if (text.startsWith("${", i)) {
      const end = text.indexOf("}", i + 2);
      const name = end < 0 ? "" : text.slice(i + 2, end);
      if (end < 0 || !NAME.test(name)) {
        return {
          ok: false,
          problem: `malformed reference "${text.slice(i, end < 0 ? i + 12 : end + 1)}": write \${NAME} with letters, digits and _ (or $\${ for a literal \${)`,
        };
      }
      const value = env[name];
      if (value === undefined) {
        missing.push(name);
        out += text.slice(i, end + 1);
      } else {
        out += value;
      }
      i = end + 1;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return { ok: true, value: out, missing };
}

/** The variable a secret field refers to, or undefined when the value is not exactly one `${NAME}`. */
export function secretReference(value: unknown): string | undefined {
  return typeof value === "string" ? SECRET_REFERENCE.exec(value)?.[1] : undefined;
}
