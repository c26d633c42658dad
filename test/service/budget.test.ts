/** The sliding-window budget and the semaphore, on a fake clock. */
import { describe, expect, it } from "vitest";
import { RateBudget, Semaphore } from "../../src/service/budget.js";

function fakeClock() {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

describe("RateBudget", () => {
  it("never lets more than the limit into any window, counting from each answer", async () => {
    const clock = fakeClock();
    const budget = new RateBudget([{ limit: 20, ms: 2000 }], clock);
    const answered: number[] = [];
    const sent: number[] = [];
    for (let i = 0; i < 65; i++) {
      const { done } = await budget.acquire();
      sent.push(clock.t);
      clock.t += 10; // the answer arrives 10 ms later
      answered.push(clock.t);
      done();
    }
    for (const start of sent) {
      const inWindow = answered.filter((a) => a > start - 2000 && a <= start).length;
      expect(inWindow).toBeLessThan(20);
    }
    expect(sent[19]).toBe(190);
    expect(sent[20]).toBe(10 + 2000); // the first answer left the window
    expect(clock.t).toBeLessThan(3 * 2000 + 65 * 10 + 100);
  });

  it("honours every window (minute and hour)", async () => {
    const clock = fakeClock();
    const budget = new RateBudget(
      [
        { limit: 5, ms: 60_000 },
        { limit: 8, ms: 3_600_000 },
      ],
      clock,
    );
    for (let i = 0; i < 9; i++) (await budget.acquire()).done();
    expect(clock.t).toBe(3_600_000);
  });

  it("waits for in-flight requests when they fill the window", async () => {
    const clock = fakeClock();
    const budget = new RateBudget([{ limit: 2, ms: 1000 }], clock);
    const a = await budget.acquire();
    await budget.acquire();
    let third = false;
    const pending = budget.acquire().then(() => {
      third = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(third).toBe(false);
    a.done();
    await pending;
    expect(third).toBe(true);
    expect(clock.t).toBe(1000);
  });

  it("tells the waiter how long and why, before the wait", async () => {
    const clock = fakeClock();
    const budget = new RateBudget([{ limit: 1, ms: 1000 }], clock);
    const heard: Array<[number, string, number]> = [];
    const onWait = (ms: number, reason: string) => heard.push([ms, reason, clock.t]);
    (await budget.acquire(onWait)).done();
    (await budget.acquire(onWait)).done();
    budget.pauseUntil(clock.t + 5000);
    (await budget.acquire(onWait)).done();
    expect(heard).toEqual([
      [1000, "rate-limit", 0],
      [5000, "retry-after", 1000],
    ]);
  });

  it("pauses everyone after a 429", async () => {
    const clock = fakeClock();
    const budget = new RateBudget([{ limit: 100, ms: 1000 }], clock);
    budget.pauseUntil(5000);
    const { waitedMs } = await budget.acquire();
    expect(waitedMs).toBe(5000);
  });
});

describe("Semaphore", () => {
  it("bounds concurrency", async () => {
    const sem = new Semaphore(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        sem.run(async () => {
          peak = Math.max(peak, ++running);
          await new Promise((r) => setTimeout(r, 2));
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it("releases its permit when a task throws", async () => {
    const sem = new Semaphore(1);
    await expect(sem.run(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    await expect(sem.run(async () => 1)).resolves.toBe(1);
  });
});
