/**
 * `validate` reports the schema's problems and the semantic rules' in one run, for every file that
 * parses: a broken item does not hide a duplicate elsewhere, a wrong `project:` does not hide its file's
 * items, a wrong list of one kind does not hide the file's other kinds.
 */
import { describe, expect, it } from "vitest";
import { run } from "../../src/commands/validate.js";
import { memoryIo } from "../support/io.js";
import { tree } from "./helpers.js";

describe("validate in one pass", () => {
  it("reports a schema error in one object and a duplicate across files together, sorted, exit 1", async () => {
    const root = tree({
      "posthog/b.yaml": "project: 1\ndashboards:\n  - name: Revenue\n",
      "posthog/a.yaml":
        'project: 1\ndashboards:\n  - name: Weekly KPIs\n    pinned: "yes"\n  - name: Revenue\n',
    });
    const out = memoryIo({}, root);
    expect(await run({ args: [] }, out.io)).toBe(1);
    expect(out.stdout).toBe(
      'posthog/a.yaml:4:13: error: pinned of dashboard "Weekly KPIs" must be true or false; got "yes"\n' +
        'posthog/b.yaml:3:5: error: duplicate dashboard name "Revenue" in project 1: also declared at posthog/a.yaml:5:5\n',
    );
    expect(out.stderr).toBe("2 files, 3 objects: 2 errors\n");
  });

  it("still checks the items of a file whose project: is wrong, and duplicates within it", async () => {
    const root = tree({
      "c.yaml": [
        "project: one",
        "batch_exports:",
        "  - name: pg",
        "    start_at: 2026-01-02T00:00:00Z",
        "    end_at: 2026-01-01T00:00:00Z",
        "  - name: pg",
        "",
      ].join("\n"),
      // The same name in another file is no duplicate: c.yaml's project is unknown.
      "d.yaml": "project: 1\nbatch_exports:\n  - name: pg\n",
    });
    const out = memoryIo({}, root);
    expect(await run({ args: ["c.yaml", "d.yaml"] }, out.io)).toBe(1);
    expect(out.stdout.split("\n").filter(Boolean)).toEqual([
      'c.yaml:1:10: error: project must be an integer; got "one"',
      expect.stringMatching(
        /^c\.yaml:4:15: error: start_at of batch export "pg" .* must be before its end_at/,
      ),
      'c.yaml:6:5: error: duplicate batch export name "pg": also declared at c.yaml:3:5',
    ]);
    expect(out.stderr).toBe("2 files, 3 objects: 3 errors\n");
  });

  it("skips only the kind whose list is wrong, not the file's other kinds", async () => {
    const root = tree({
      "e.yaml": [
        "project: 1",
        "dashboards: {name: x}",
        "batch_exports:",
        "  - name: pg",
        "    start_at: 2026-01-01T00:00:00",
        "",
      ].join("\n"),
    });
    const out = memoryIo({}, root);
    expect(await run({ args: ["e.yaml"] }, out.io)).toBe(1);
    expect(out.stdout.split("\n").filter(Boolean)).toEqual([
      "e.yaml:2:13: error: dashboards must be a list or null; got a mapping",
      expect.stringMatching(/^e\.yaml:5:15: error: start_at of batch export "pg" .*timezone/),
    ]);
    expect(out.stderr).toBe("1 file, 1 object: 2 errors\n");
  });
});
