/**
 * Client benchmark against the emulator with 20 ms latency:
 * 1. listing 1,000 dashboards takes ceil(1000 / limit) requests;
 * 2. 200 independent GETs at concurrency 4 versus 1 (expected ratio about 4).
 * Run: npx tsx bench/client.ts
 */
import { startEmulator } from "posthog-gitops-emulator";
import { dashboardsApi } from "../src/kinds/dashboard/service.js";
import { collect, ServiceClient } from "../src/service/client.js";

const PROJECT = 12345;
const KEY = "phx_emulator";
const LIMIT = 100;

async function control(url: string, path: string, method: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}/_emulator/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} /_emulator/${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const state = (await control(emulator.url, "state", "GET")) as { dashboards: unknown[] };
    const dashboards = Array.from({ length: 1000 }, (_, i) => ({
      id: 100_000 + i,
      team_id: PROJECT,
      name: `Bench ${String(i).padStart(4, "0")}`,
    }));
    await control(emulator.url, "seed", "POST", { ...state, dashboards });
    await control(emulator.url, "faults", "POST", { latency_ms: 20 });
    await control(emulator.url, "requests", "DELETE");

    const lister = new ServiceClient({ host: emulator.url, apiKey: KEY });
    let started = performance.now();
    const listed = await collect(dashboardsApi(lister).list(PROJECT, { limit: LIMIT }));
    const listMs = performance.now() - started;
    const log = (await control(emulator.url, "requests", "GET")) as { requests: unknown[] };
    console.log(
      `list: ${listed.length} dashboards in ${lister.stats.requests.GET} requests ` +
        `(emulator saw ${log.requests.length}; expected ceil(1000/${LIMIT}) = ${Math.ceil(1000 / LIMIT)}) in ${Math.round(listMs)} ms`,
    );
    await lister.close();

    const ids = listed.slice(0, 200).map((d) => d.id);
    const timeGets = async (concurrency: number) => {
      const client = new ServiceClient({ host: emulator.url, apiKey: KEY, concurrency });
      started = performance.now();
      await Promise.all(ids.map((id) => dashboardsApi(client).get(PROJECT, id)));
      const ms = performance.now() - started;
      const { retries, throttled429 } = client.stats;
      await client.close();
      return { ms, retries, throttled429 };
    };
    const serial = await timeGets(1);
    const parallel = await timeGets(4);
    console.log(`200 GETs, concurrency 1: ${Math.round(serial.ms)} ms`);
    console.log(`200 GETs, concurrency 4: ${Math.round(parallel.ms)} ms`);
    console.log(
      `speed-up: ${(serial.ms / parallel.ms).toFixed(2)}x; retries ${serial.retries + parallel.retries}, ` +
        `429s ${serial.throttled429 + parallel.throttled429}`,
    );
  } finally {
    await emulator.close();
  }
}

await main();
