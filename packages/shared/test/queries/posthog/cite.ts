/**
 * Names of ported PostHog tests: each test is called `path::test_name` after the PostHog test it ports,
 * so a failure names the original. Parametrised cases add their parameters' name in brackets, as
 * pytest prints them.
 */
export function cite(file: string) {
  return (test: string, param?: string) => `${file}::${test}${param === undefined ? "" : `[${param}]`}`;
}
