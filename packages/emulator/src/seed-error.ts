/** A seed the emulator cannot load; the message names the first bad record. */
export class SeedError extends Error {
  override name = "SeedError";
}
