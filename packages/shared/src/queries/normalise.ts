/**
 * Comparing a declared query with the live one (SPEC §2: "compared on the keys the file declares,
 * after removing what the service adds or rewrites"). Both sides go through the service's own upgrade
 * (`upgradeQuery`), so a key a migration renames or removes compares in its new form, and a stored
 * query the service upgrades on read or rewrites in its six-hourly job is never a change. Then only
 * the declared keys count, at every depth: keys the service or the UI add (defaults, `version`,
 * fields a later schema introduces) are ignored. Lists are compared whole, element by element (their
 * length counts), each element again on its declared keys.
 */
import { isDict, type Json, type JsonObject, pyEqual } from "./python.js";
import { QueryUpgradeError, upgradeQuery } from "./upgrade.js";

/** Keys the service owns inside every query node: never compared, never worth a change. */
export const SERVICE_OWNED_QUERY_KEYS: ReadonlySet<string> = new Set(["version"]);

/** A query as the service would show it after its upgrades, without the keys it owns. */
export function upgradedForComparison(query: unknown): Json {
  let upgraded: Json;
  try {
    upgraded = upgradeQuery(query as Json);
  } catch (error) {
    // The service fails the same way on such a query; compare it as written rather than not at all.
    if (!(error instanceof QueryUpgradeError)) throw error;
    upgraded = structuredClone(query as Json);
  }
  return withoutOwnedKeys(upgraded);
}

/** A query without the keys the service owns (`version`), at every depth: as `pull` writes it. */
export function withoutOwnedKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutOwnedKeys);
  if (!isDict(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (!SERVICE_OWNED_QUERY_KEYS.has(key)) out[key] = withoutOwnedKeys(item);
  }
  return out;
}

/**
 * The live value seen through the declared one: of each object, only the keys the declared object
 * has (a key the live side lacks stays absent); lists keep every live element, each projected
 * through the declared element at its index. Equal to `declared` exactly when nothing declared differs.
 */
export function projectOnDeclared(live: Json, declared: Json): Json {
  if (isDict(declared) && isDict(live)) {
    const out: JsonObject = {};
    for (const [key, want] of Object.entries(declared)) {
      if (Object.hasOwn(live, key)) out[key] = projectOnDeclared(live[key] as Json, want);
      // A declared null is the key's absence to the service, which may store either.
      else if (want === null) out[key] = null;
    }
    return out;
  }
  if (Array.isArray(declared) && Array.isArray(live)) {
    return live.map((item, i) => (i < declared.length ? projectOnDeclared(item, declared[i] as Json) : item));
  }
  return live;
}

export interface QueryComparison {
  /** True when every declared key has its declared value live (after the upgrades). */
  equal: boolean;
  /** The declared query, upgraded, without the keys the service owns: what the plan shows as `after`. */
  declared: Json;
  /** The live query on the declared keys only: what the plan shows as `before`. */
  live: Json;
}

export function compareQuery(declared: unknown, live: unknown): QueryComparison {
  const want = upgradedForComparison(declared);
  const have = projectOnDeclared(upgradedForComparison(live ?? null), want);
  return { equal: pyEqual(have, want), declared: want, live: have };
}
