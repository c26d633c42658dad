/**
 * The scalars the hostile-input generators draw from: values YAML resolves specially, values that
 * break a document, and plausible values for the known keys (so many documents reach the schema).
 */
import fc from "fast-check";

/** Scalars YAML resolves specially, and strings that stress interpolation and quoting; all parse. */
const specialScalar = fc.constantFrom(
  "~",
  "null",
  "Null",
  "true",
  "yes",
  "no",
  "on",
  "off",
  ".inf",
  "-.inf",
  ".nan",
  "0x1F",
  "0o17",
  "1e400",
  "-0",
  "12345",
  "9007199254740993",
  "2026-13-45T25:61:61Z",
  "2026-01-01",
  "''",
  '""',
  "!!str 12",
  `\${AWS_ACCESS_KEY_ID}`,
  "$${ESCAPED}",
  `\${UNSET_VARIABLE_X}`,
  `\${__proto__}`,
  `\${constructor}`,
  "'${'",
  "'quoted: value'",
  '"\\u0000\\x07"',
  "'__proto__'",
  "'constructor'",
);

/** Scalars that break the document (tags, indicators, block scalars in the wrong place). */
const breakingScalar = fc.constantFrom(
  "!!binary aGVsbG8=",
  "!!int x",
  "!custom tag",
  "|\n  block\n  text",
  ">-\n  folded",
  "- item",
  "&a anchor",
  "*undefined_alias",
  "? complex",
  "!!python/object:os.system",
  "@reserved",
  "`backtick`",
  "%YAML 1.1",
  "${",
);

/** Values a real file would hold for the known keys, so many documents get past the parser. */
const plausible = fc.constantFrom(
  "Weekly KPIs",
  "can_edit",
  "can_view",
  "only_collaborators",
  "everyone",
  "events",
  "persons",
  "hour",
  "day",
  "S3",
  "0190f1d2-7b4e-7c3a-9d1f-000000000002",
  "{enabled: true}",
  "{enabled: false}",
  "[growth, kpi]",
  "[{user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000003, level: can_edit}]",
  "{type: S3, config: {bucket_name: b, region: r, prefix: p, aws_access_key_id: x, aws_secret_access_key: y}}",
  '["Generated *", "["]',
  "12346",
  "2026-01-01T00:00:00Z",
  "SELECT event FROM events",
);

// A document holds a few dozen scalars: breaking ones stay rare so most documents reach the schema.
export const oddScalar = fc.oneof(
  { weight: 30, arbitrary: plausible },
  { weight: 30, arbitrary: specialScalar },
  { weight: 1, arbitrary: breakingScalar },
  { weight: 8, arbitrary: fc.string({ maxLength: 40 }).map((s) => JSON.stringify(s)) },
  { weight: 4, arbitrary: fc.integer().map(String) },
  { weight: 2, arbitrary: fc.double().map(String) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }).map((s) => JSON.stringify(s)) },
);
