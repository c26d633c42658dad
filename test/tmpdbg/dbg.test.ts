import { it } from "vitest";
import { useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
it("dbg", async () => {
  h.write(
    "p/d.yaml",
    "project: 12345\ndashboards:\n  - name: Ghost\n    id: 999\n    description: x\n  - name: Fresh board\n",
  );
  for (const args of [
    ["plan", "p"],
    ["apply", "--auto-approve", "p"],
  ]) {
    const out = await h.cli(args);
    console.log(args[0], out.code, "\n" + out.stdout, "\nERR:" + out.stderr);
  }
});
