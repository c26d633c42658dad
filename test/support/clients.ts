/**
 * Service clients for tests against the emulator, on a clock the client itself moves: every wait
 * the client asks for (pacing, Retry-After, backoff) is recorded in `slept` and advances the clock
 * at once, so a test sees what the client would have waited without waiting. `track` adds a client
 * made otherwise (on the real clock); `closeAll` closes every client so far and forgets the waits.
 */
import { ServiceClient } from "../../src/service/client.js";

type ClientOptions = Partial<ConstructorParameters<typeof ServiceClient>[0]>;

export function steppedClients(url: () => string, apiKey: string) {
  const made: ServiceClient[] = [];
  const slept: number[] = [];
  let clock = 0;
  const track = (c: ServiceClient): ServiceClient => {
    made.push(c);
    return c;
  };
  const client = (options: ClientOptions = {}): ServiceClient => {
    const c = new ServiceClient({
      host: url(),
      apiKey,
      clock: {
        sleep: async (ms) => {
          slept.push(ms);
          clock += ms;
        },
        now: () => clock,
      },
      ...options,
    });
    return track(c);
  };
  const closeAll = async () => {
    await Promise.all(made.splice(0).map((c) => c.close()));
    slept.length = 0;
  };
  return { client, track, slept, closeAll };
}
