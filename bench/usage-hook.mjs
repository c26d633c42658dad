// Preloaded (`node --import`) into the measured CLI process: on exit, writes the process's own CPU time
// and peak RSS to $BENCH_USAGE_FILE, so the figures cover exactly that process, start-up included.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    writeFileSync(
      file,
      JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, maxRssKb: process.resourceUsage().maxRSS }),
    );
  });
}
