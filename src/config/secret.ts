import { inspect } from "node:util";

/**
 * A write-only secret from the environment. The value is held in a private field: it cannot be reached
 * by JSON.stringify, string conversion, util.inspect or structured logging, all of which print
 * `(secret from $NAME)` instead. Only the code that builds a request body calls `reveal()`, and the
 * run's scrubber (src/scrub.ts), which replaces the value with `describe()` in everything printed.
 */
export class SecretValue {
  readonly #value: string | undefined;

  /**
   * @param template the text written in the file, e.g. `${AWS_SECRET_ACCESS_KEY}` (never a secret itself)
   * @param variables the environment variable names the template refers to
   * @param value the interpolated value, or undefined when a variable is not set
   */
  constructor(
    readonly template: string,
    readonly variables: readonly string[],
    value: string | undefined,
  ) {
    this.#value = value;
  }

  get available(): boolean {
    return this.#value !== undefined;
  }

  /** The secret itself. Call only when building a request body (or to hide it from output). */
  reveal(): string {
    if (this.#value === undefined) {
      throw new Error(`secret from ${this.variables.map((v) => `$${v}`).join(", ")} is not set`);
    }
    return this.#value;
  }

  describe(): string {
    return `(secret from ${this.variables.map((v) => `$${v}`).join(", ")})`;
  }

  toString(): string {
    return this.describe();
  }

  toJSON(): string {
    return this.describe();
  }

  [inspect.custom](): string {
    return this.describe();
  }
}
