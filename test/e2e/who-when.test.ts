/**
 * Plans say who last changed an object, and when, wherever the service says (issue 30): an export's
 * `last_updated_at`, a flag's `updated_at` and `last_modified_by`; not only on drift labels. A
 * dashboard's list answer carries neither, so its plan says nothing of it.
 */

import { BOB_KEY, FLAG_IDS } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { P, S3_EXPORT_ID, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });

describe("who and when", () => {
  it("every format names who last changed a flag and when an export was last changed", async () => {
    h.write(
      "p/x.yaml",
      [
        "project: 12345",
        "feature_flags:",
        "  - key: new-checkout",
        "    name: New checkout flow",
        "batch_exports:",
        "  - name: Events to S3",
        "    paused: true",
        "dashboards:",
        "  - name: Product KPIs",
        "    pinned: false",
        "",
      ].join("\n"),
    );
    const edit = await h.api(
      "PATCH",
      `${P}/feature_flags/${FLAG_IDS.newCheckout}/`,
      { name: "Renamed in the UI" },
      { key: BOB_KEY },
    );
    expect(edit.status).toBe(200);
    const text = await h.cli(["plan", "p"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /~ feature flag "new-checkout" \(id \d+\) · p\/x\.yaml:3\n {6}! last modified 20\d\d-[^ ]+Z \([^)]+\) by Bob <bob@example\.com>\n/,
    );
    expect(text.stdout).toMatch(
      new RegExp(
        `⏸ batch export "Events to S3" \\(id ${S3_EXPORT_ID}\\) · p/x\\.yaml:6\\n {6}! last modified 20\\d\\d-[^ ]+Z \\([^)]+\\)\\n`,
      ),
    );
    expect(text.stdout).toMatch(/~ dashboard "Product KPIs" \(id 1\) · p\/x\.yaml:9\n {6}~ update/);

    const json = JSON.parse((await h.cli(["plan", "p", "--format", "json"])).stdout);
    const flag = json.actions.find((a: { object: { kind: string } }) => a.object.kind === "feature_flag");
    expect(flag.modified.by).toMatch(/^[0-9a-f-]{36}$/);
    expect(json.people[flag.modified.by]).toMatchObject({ email: "bob@example.com" });
    const markdown = (await h.cli(["plan", "p", "--format", "markdown"])).stdout;
    expect(markdown).toMatch(
      /Last modified 20\d\d-[^ ]+Z \([^)]+\) by Bob &lt;bob@&#8203;example\.com&gt;\./,
    );
  });
});
