/**
 * Emulator throughput: list and retrieve dashboards with undici at concurrency 8 for a few seconds,
 * printing requests per second (target ≥ 2,000 on a 2-core machine). The emulator runs in a worker
 * process so client and server each get a core, like a real client and service.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startEmulator } from "posthog-gitops-emulator";
import { Pool } from "undici";

const CONCURRENCY = 8;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? "4") * 1000;
const AUTH = { authorization: "Bearer phx_emulator" };

async function serve(): Promise<void> {
  const emulator = await startEmulator({ port: 0, rateLimit: "none" });
  process.stdout.write(`${emulator.url}\n`);
  process.once("SIGTERM", () => void emulator.close());
}

async function bench(url: string): Promise<void> {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  const paths = [
    "/api/projects/12345/dashboards/",
    "/api/projects/12345/dashboards/1/",
    "/api/projects/12345/batch_exports/",
    "/api/projects/12345/dashboards/3/",
  ];
  let done = 0;
  let failed = 0;
  const deadline = performance.now() + DURATION_MS;
  const started = performance.now();
  const lane = async (n: number) => {
    for (let i = n; performance.now() < deadline; i++) {
      const res = await pool.request({
        method: "GET",
        path: paths[i % paths.length] as string,
        headers: AUTH,
      });
      await res.body.dump();
      if (res.statusCode === 200) done++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => lane(n)));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  const rps = Math.round(done / seconds);
  process.stdout.write(
    `emulator: ${done} requests in ${seconds.toFixed(1)} s at concurrency ${CONCURRENCY}: ${rps} requests/second (${failed} failed)\n`,
  );
  if (failed > 0 || rps < 2000) process.exitCode = 1;
}

if (process.argv.includes("--serve")) {
  await serve();
} else {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  try {
    await bench(url);
  } finally {
    child.kill("SIGTERM");
  }
}
