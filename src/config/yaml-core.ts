/**
 * How the `yaml` library resolves a plain (unquoted, untagged) scalar under the YAML 1.2 core schema,
 * restated so the direct path (parse-fast.ts), which reads the library's tokens without its document
 * tree, gives the very same values: the tests and their order are those of `yaml`'s core schema (null,
 * bool, octal, decimal and hex int, nan/inf, exponent and plain float), with the same conversions.
 * Anything else is a string. `2026-01-01` stays a string, `yes` and `on` stay strings, and there are
 * no merge keys.
 */

/** Returned for a plain scalar that is just a string. */
export const PLAIN_STRING: unique symbol = Symbol("plain string");

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** Every special scalar starts with one of these characters; a quick exit for ordinary words. */
const MAY_BE_SPECIAL = /^[-+.~0-9nNtTfF]|^$/;

export function resolvePlain(text: string): null | boolean | number | typeof PLAIN_STRING {
  if (!MAY_BE_SPECIAL.test(text)) return PLAIN_STRING;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === "t" || text[0] === "T";
  if (INT_OCT.test(text)) return Number.parseInt(text.substring(2), 8);
  if (INT.test(text)) return Number.parseInt(text, 10);
  if (INT_HEX.test(text)) return Number.parseInt(text.substring(2), 16);
  if (FLOAT_NAN.test(text)) {
    if (text.slice(-3).toLowerCase() === "nan") return Number.NaN;
    return text[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return Number.parseFloat(text);
  return PLAIN_STRING;
}
