/**
 * A loopback proxy in front of the emulator that holds back the requests `hold` picks until the test
 * opens it, and forwards everything else (bodies included) at once. One CLI run through it can thus be
 * stopped at an exact point (after its plan's reads, before its create) while another run goes ahead:
 * interleavings of two applies without depending on timing.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface GateRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  body: string;
}

export interface Gate {
  url: string;
  /** Resolves when the first request is being held. */
  holding: Promise<GateRequest>;
  /** Every request that came through, in the order they arrived. */
  seen: GateRequest[];
  /** Lets the held requests go and holds nothing from then on. */
  open(): void;
  close(): Promise<void>;
}

export async function gateProxy(target: () => string, hold: (req: GateRequest) => boolean): Promise<Gate> {
  let opened = false;
  const seen: GateRequest[] = [];
  const waiting: Array<() => void> = [];
  let held: (req: GateRequest) => void = () => {};
  const holding = new Promise<GateRequest>((resolve) => {
    held = resolve;
  });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const request = { method: req.method ?? "GET", url: req.url ?? "/", body: body.toString("utf8") };
    seen.push(request);
    if (!opened && hold(request)) {
      held(request);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v;
    }
    const init: RequestInit = { method: request.method, headers };
    if (body.length > 0) init.body = body;
    try {
      const answer = await fetch(`${target()}${request.url}`, init);
      const text = await answer.text();
      res.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "application/json",
      });
      res.end(text);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    holding,
    seen,
    open() {
      opened = true;
      for (const release of waiting.splice(0)) release();
    },
    close: () =>
      new Promise<void>((resolve) => {
        opened = true;
        for (const release of waiting.splice(0)) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
