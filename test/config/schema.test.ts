import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED, schemaText } from "../../scripts/write-schemas.js";
import { secretPaths } from "../../src/kinds/batch-export/service-rules/destinations.js";

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../schemas/config.schema.json"), "utf8"),
);

/** Every property schema reachable from the root, with its path. */
function properties(node: Record<string, unknown>, path: string, out: [string, Record<string, unknown>][]) {
  for (const [key, child] of Object.entries(
    (node.properties ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    out.push([`${path}.${key}`, child]);
    properties(child, `${path}.${key}`, out);
    if (child.items && typeof child.items === "object")
      properties(child.items as Record<string, unknown>, `${path}.${key}[]`, out);
  }
  return out;
}

describe("config.schema.json", () => {
  it("is JSON Schema 2020-12 with a description on every key", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const all = [
      ...properties(schema, "", []),
      ...Object.entries(schema.$defs).flatMap(([name, def]) =>
        properties(def as Record<string, unknown>, name, []),
      ),
    ];
    expect(all.length).toBeGreaterThan(100);
    const undocumented = all
      .filter(([, s]) => typeof s.description !== "string" && s.$ref === undefined)
      .map(([p]) => p);
    expect(undocumented).toEqual([]);
  });

  it("marks the secret fields of each destination type", () => {
    expect(secretPaths("S3")).toEqual(["aws_access_key_id", "aws_secret_access_key"]);
    expect(secretPaths("Postgres")).toEqual(["user", "password"]);
    expect(secretPaths("Snowflake")).toEqual(["user", "password", "private_key", "private_key_passphrase"]);
    expect([...secretPaths("BigQuery")].sort()).toEqual([
      "client_email",
      "private_key",
      "private_key_id",
      "token_uri",
    ]);
    expect(secretPaths("HTTP")).toEqual(["token"]);
    expect(secretPaths("Redshift")).toContain("copy_inputs.bucket_credentials.aws_secret_access_key");
    expect(secretPaths("Databricks")).toEqual([]);
  });
});

describe("the published schemas", () => {
  it("are exactly what the code defines (run `npm run schemas` after changing a kind's schema)", () => {
    for (const [path, schema] of Object.entries(GENERATED)) {
      const committed = JSON.parse(readFileSync(join(import.meta.dirname, "../..", path), "utf8"));
      expect(committed, path).toEqual(JSON.parse(schemaText(schema)));
    }
  });
});
