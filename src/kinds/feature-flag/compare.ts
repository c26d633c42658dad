/**
 * A flag's `filters` compared (the field's codec): on the top-level keys the file declares, both sides
 * in the comparable shape of filters.ts (every server rewrite undone; flags and cohorts already named
 * by name by the kit), each differing key one change in a reviewer's words (phrasing.ts). Encrypted
 * payload values never enter the plan: their plain text is compared in memory with the live one (when
 * the variable is set), one change per payload key naming its variable, or sent again under
 * --rotate-secrets.
 */
import { SecretValue } from "../../config/secret.js";
import { toSecretRef } from "../../plan/secrets.js";
import type { FieldChange } from "../../plan/types.js";
import type { CodecPair } from "../define/index.js";
import {
  differingFilterKeys,
  ENCRYPTED,
  isObject,
  type Json,
  jsonEqual,
  type NormaliseOptions,
  normaliseDesiredFilters,
  normaliseLiveFilters,
  parsePayload,
} from "./filters.js";
import type { LiveFlag } from "./live.js";
import { describeFlagField } from "./phrasing.js";

/** What the comparison reads of a declared flag (fields.ts's `DesiredFlag`). */
interface DesiredFlag {
  is_remote_configuration?: boolean;
  has_encrypted_payloads?: boolean;
  filters?: Json;
}

function normaliseOptions(desired: DesiredFlag, live: LiveFlag | undefined): NormaliseOptions {
  const remote = desired.is_remote_configuration ?? live?.is_remote_configuration === true;
  // Encrypted on either side: a live payload is never compared or shown, whatever the file says.
  const encrypted = desired.has_encrypted_payloads === true || live?.has_encrypted_payloads === true;
  const stored = live && isObject(live.filters) ? live.filters.aggregation_group_type_index : null;
  return {
    remoteConfiguration: remote,
    encrypted,
    storedAggregation: typeof stored === "number" ? stored : null,
  };
}

/** The changes of `filters`: `declared` and `live` with their references by name. */
export function filterChanges(declared: Json, live: unknown, pair: CodecPair): FieldChange[] {
  const desired = pair.desired as DesiredFlag;
  const flag = pair.live as LiveFlag | undefined;
  const opts = normaliseOptions(desired, flag);
  const wanted = normaliseDesiredFilters(declared, opts);
  const current = normaliseLiveFilters(isObject(live) ? live : {}, opts);
  const keys = Object.keys(declared);
  const encrypted = opts.encrypted && keys.includes("payloads");
  const changes = differingFilterKeys(keys, wanted, current)
    .filter((k) => !(encrypted && k === "payloads"))
    .map((key): FieldChange => {
      const path = `filters.${key}`;
      const before = current[key] ?? null;
      const after = wanted[key] ?? null;
      const says = describeFlagField(path, before, after);
      return { path, before, after, ...(says.length > 0 ? { says } : {}) };
    });
  if (encrypted && flag) changes.push(...encryptedPayloadChanges(desired, flag, pair.rotateSecrets));
  return changes;
}

/**
 * The changes of a flag's payloads when either side is encrypted, one per payload key: compared in
 * memory with the live plain text (never kept), added, removed, or sent again under --rotate-secrets.
 * A variable not set leaves its value unknown: treated as unchanged. When encryption is switched on or
 * off every declared payload is written again (the service encrypts only the payloads a write sends),
 * and a payload the file writes in plain text is never compared with an encrypted live one (the plan
 * would tell whether a guess was right: `plainOverEncrypted`). A change carries the variable or the
 * file's value, never a live one.
 */
function encryptedPayloadChanges(desired: DesiredFlag, live: LiveFlag, rotate: boolean): FieldChange[] {
  const wanted = isObject(desired.filters?.payloads) ? desired.filters.payloads : {};
  const current = isObject(live.filters) && isObject(live.filters.payloads) ? live.filters.payloads : {};
  const liveEncrypted = live.has_encrypted_payloads === true;
  const encrypted = desired.has_encrypted_payloads ?? liveEncrypted;
  const switching = encrypted !== liveEncrypted;
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    const path = `filters.payloads.${key}`;
    const after = value instanceof SecretValue ? toSecretRef(value) : value;
    if (!(key in current)) {
      const says = [`adds the ${encrypted ? "encrypted " : ""}payload for ${key}`];
      changes.push({ path, after, ...(encrypted ? { secret: true } : {}), says });
      continue;
    }
    const differs =
      value instanceof SecretValue &&
      value.available &&
      !jsonEqual(parsePayload(value.reveal()), parsePayload(current[key]));
    if (!(switching || rotate || differs)) continue;
    const says = [`changes the encrypted payload for ${key}`];
    changes.push(encrypted ? { path, after, secret: true, says } : { path, before: ENCRYPTED, after, says });
  }
  for (const key of Object.keys(current)) {
    if (!(key in wanted)) {
      changes.push({
        path: `filters.payloads.${key}`,
        before: ENCRYPTED,
        after: null,
        says: [`removes the encrypted payload for ${key}`],
      });
    }
  }
  return changes;
}

/**
 * Payloads the file writes in plain text for a flag whose live payloads are encrypted, without saying
 * `has_encrypted_payloads`: plan errors, one per payload. Compared, they would tell a reader of the
 * plan whether the file guessed the live secret; written, they would replace it unseen.
 */
export function plainOverEncrypted(
  desired: DesiredFlag & { name: string },
  live: Pick<LiveFlag, "has_encrypted_payloads">,
): string[] {
  if (live.has_encrypted_payloads !== true || desired.has_encrypted_payloads !== undefined) return [];
  const payloads = desired.filters?.payloads;
  if (!isObject(payloads)) return [];
  return Object.keys(payloads).map(
    (key) =>
      `payload ${JSON.stringify(key)} of feature flag "${desired.name}" is written in plain text, but its live payloads are encrypted: declare has_encrypted_payloads: true and write it as one \${NAME} reference (a secret), or has_encrypted_payloads: false to store it in plain text from now on`,
  );
}
