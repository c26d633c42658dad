/**
 * What the fuzz campaign watches besides the result: socket connections (any attempt is recorded and
 * refused, so a network path in the loader shows up even if it would fail), and the built-in prototypes
 * (their own property names, which pollution through `__proto__` / `constructor.prototype` would extend).
 */
import net from "node:net";

export interface NetworkGuard {
  attempts: string[];
  restore(): void;
}

export function guardNetwork(): NetworkGuard {
  const original = net.Socket.prototype.connect;
  const attempts: string[] = [];
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    attempts.push(JSON.stringify(args[0]) ?? String(args[0]));
    throw new Error("the fuzz campaign forbids network connections");
  } as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}

const WATCHED = [Object.prototype, Array.prototype, Function.prototype, String.prototype];

export function prototypeSnapshot(): string {
  return JSON.stringify(WATCHED.map((p) => Object.getOwnPropertyNames(p).sort()));
}

/** Paths inside `value` whose prototype is a plain object other than Object.prototype (a polluted chain). */
export function foreignPrototypes(value: unknown, path = "$", seen = new Set<object>()): string[] {
  if (value === null || typeof value !== "object" || seen.has(value)) return [];
  seen.add(value);
  const proto = Object.getPrototypeOf(value) as object | null;
  const ok =
    proto === null ||
    proto === Object.prototype ||
    proto === Array.prototype ||
    (Object.hasOwn(proto, "constructor") &&
      typeof (proto as { constructor: unknown }).constructor === "function");
  const found = ok ? [] : [path];
  for (const [k, v] of Object.entries(value)) found.push(...foreignPrototypes(v, `${path}.${k}`, seen));
  return found;
}
