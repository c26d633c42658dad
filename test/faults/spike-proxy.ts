/**
 * Latency spikes the emulator cannot make (its latency is one level for every request): a loopback
 * HTTP proxy in front of it that holds a seeded random share of requests for 100-400 ms before
 * forwarding them. A connection the emulator drops (lost response, reset) is dropped towards the
 * client too, so the emulator's own faults pass through unchanged.
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { prng } from "./world.js";

export interface SpikeProxy {
  url: string;
  spikes: number;
  close(): Promise<void>;
}

export async function startSpikeProxy(target: string, seed: number, share: number): Promise<SpikeProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const random = prng(seed ^ 0x5bd1e995);
  const state = { spikes: 0 };
  const server = createServer((req, res) => {
    const delay = random.chance(share) ? 100 + random.int(300) : 0;
    if (delay > 0) state.spikes++;
    setTimeout(() => {
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("error", () => res.destroy());
        },
      );
      out.on("error", () => res.socket?.destroy());
      req.pipe(out);
    }, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get spikes() {
      return state.spikes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
