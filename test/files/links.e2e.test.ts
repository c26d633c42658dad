/**
 * Writes never follow a symbolic link at the target path and never leave a saved plan wider than 0600
 * (SPEC §8 "Writes"): `pull` (whose "never overwrites" must see a dangling link), `plan --out`, the job
 * summary and `pull --refresh` each refuse a link with one line naming the path, exit 1, and leave the
 * link and what it points to as they were. The real CLI runs in-process against the emulator.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { P, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const LINK = /is a symbolic link, and posthog-gitops never writes through one/;

/** A symbolic link at `name` (relative to the test's folder) pointing to `target`. */
function link(name: string, target: string): string {
  const path = join(h.dir, name);
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
  return path;
}

const mode = (name: string) => statSync(join(h.dir, name)).mode & 0o777;

describe("writes and symbolic links", () => {
  it("pull refuses a dangling link where it would write, and writes nothing where it points", async () => {
    link("pulled/dashboards.yaml", "../elsewhere.yaml");
    const result = await h.cli(["pull", "--project", "12345", "--out", "pulled"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: pulled/dashboards.yaml already exists; pull never overwrites: to bring the files you have up to date with the live values, run posthog-gitops pull --refresh pulled; to adopt the project anew, choose another --out\n",
    );
    expect(existsSync(join(h.dir, "elsewhere.yaml"))).toBe(false);
    expect(readlinkSync(join(h.dir, "pulled/dashboards.yaml"))).toBe("../elsewhere.yaml");
    // Refused before anything was read from the service.
    expect(await h.requests()).toEqual([]);
  });

  it("plan --out refuses a link to a file, and leaves the file as it was", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: false\n");
    h.write("target.txt", "keep me\n");
    link("saved.json", "target.txt");
    const result = await h.cli(["plan", "--out", "saved.json", "p"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(LINK);
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(/^error: cannot write the plan to saved\.json: /);
    expect(readFileSync(join(h.dir, "target.txt"), "utf8")).toBe("keep me\n");
    expect(lstatSync(join(h.dir, "saved.json")).isSymbolicLink()).toBe(true);
  });

  it("the job summary refuses a link too", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: false\n");
    h.write("elsewhere.md", "");
    const summary = link("summary.md", "elsewhere.md");
    const result = await h.cli(["plan", "p"], { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(LINK);
    expect(readFileSync(join(h.dir, "elsewhere.md"), "utf8")).toBe("");
  });

  it("pull --refresh refuses to write a configuration file given as a link", async () => {
    const text = "project: 12345\ndashboards:\n  - name: Product KPIs\n    id: 1\n    pinned: true\n";
    h.write("other/real.yaml", text);
    link("posthog/d.yaml", "../other/real.yaml");
    // Edited in the UI: there is something to refresh.
    expect((await h.api("PATCH", `${P}/dashboards/1/`, { pinned: false })).status).toBe(200);
    const result = await h.cli(["pull", "--refresh", "posthog/d.yaml"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(LINK);
    expect(readFileSync(join(h.dir, "other/real.yaml"), "utf8")).toBe(text);
  });
});

describe("saved plans", () => {
  it("are mode 0600, also when the file existed with wider permissions", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: false\n");
    h.write("saved.json", "{}\n");
    chmodSync(join(h.dir, "saved.json"), 0o644);
    const result = await h.cli(["plan", "--out", "saved.json", "p"]);
    expect(result.code, result.stderr).toBe(0);
    expect(mode("saved.json")).toBe(0o600);
    expect(JSON.parse(readFileSync(join(h.dir, "saved.json"), "utf8")).plan.summary.total).toBe(1);
  });
});
