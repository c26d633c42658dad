/**
 * The config loader has no network path at all (SPEC §6: bad input gets no request; `validate` runs
 * without a key): nothing reachable by import from src/config/index.ts loads an HTTP client, a socket
 * module or the service client. The fuzz campaign checks the same at run time with a socket guard.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const NETWORK = /^(undici|node:(net|http|https|http2|tls|dns|dgram)|net|http|https|tls|dns)$/;

function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(
      /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const spec = match[1] ?? match[2] ?? "";
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

describe("the config loader's imports", () => {
  it("reach no network module and not the service client", () => {
    const entry = fileURLToPath(new URL("../../src/config/index.ts", import.meta.url));
    const { files, packages } = reachable(entry);
    expect(files.size).toBeGreaterThan(5);
    expect([...packages].filter((p) => NETWORK.test(p))).toEqual([]);
    expect([...files].filter((f) => /[/\\]src[/\\](service|live|apply|emulator)[/\\]/.test(f))).toEqual([]);
    expect(packages).toContain("yaml");
  });
});
