/**
 * Every example folder applies against the emulator in its default mode (the newest service's rules)
 * with zero refused requests in its log, and plans nothing afterwards; the legacy S3 example is
 * recognised as the export the service migrated, with a warning naming the form to declare instead.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const SECRETS = {
  AWS_ACCESS_KEY_ID: "AKIAEXAMPLES00000000",
  AWS_SECRET_ACCESS_KEY: "ExAws+Sk/4Rm9Tq2Wz",
  PRODUCTION_PROJECT_TOKEN: "phc_Ex7Lq2Vm9Rt4Kw",
  PRICING_PAYLOAD: "ExPrc7Lq2Vm9Rt",
};
const folders = readdirSync(join(ROOT, "examples"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "github")
  .map((d) => join(ROOT, "examples", d.name));

describe("examples/ against the default (newest) emulator", () => {
  it("has the two environments", () => {
    expect(folders.map((f) => f.split("/").pop()).sort()).toEqual(["production", "staging"]);
  });

  it.each(folders)("%s validates, applies with no 4xx answer, and then plans nothing", async (folder) => {
    const validate = await h.cli(["validate", folder], SECRETS);
    expect(validate.stderr).not.toMatch(/error/);
    expect(validate.code).toBe(0);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", folder], SECRETS);
    expect(apply.stdout).not.toContain("✗");
    expect(apply.code).toBe(0);
    const plan = await h.cli(["plan", "--detailed-exitcode", folder], SECRETS);
    expect(plan.stdout).toContain("No changes");
    expect(plan.code).toBe(0);
    const refused = (await h.requests()).filter((r) => r.status >= 400);
    expect(refused).toEqual([]);
  });

  it("the legacy S3 export plans as the AwsS3 export the service migrated, with the form to use", async () => {
    const plan = await h.cli(["plan", join(ROOT, "examples/production")], SECRETS);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(
      /warning: declared as a legacy S3 export with inline keys, but the service migrated it to AwsS3 with integration 1[^\n]*declare destination: \{type: AwsS3, integration: 1, config: \{bucket_name: acme-events,/,
    );
    expect(plan.stdout).not.toMatch(/Events to S3[^\n]*\n\s+~ update/);
  });
});
