/**
 * The instant the emulator's tests start at unless they pick another (the tool's tests use the same
 * one): a Friday, mid-month, mid-day UTC, so nothing a test asserts depends on when it runs.
 */
import { type Clock, clockFrom } from "posthog-gitops-shared/clock";

export const TEST_NOW = "2026-11-20T12:00:00.000Z";

/** A clock that starts at `start` (default TEST_NOW) and runs at real speed. */
export function testClock(start: string | number = TEST_NOW): Clock {
  return clockFrom(start);
}
