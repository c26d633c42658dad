/**
 * The contract every resource kind implements. A handler knows its kind's server-owned and secret
 * fields, normalises live objects into one comparable shape, compares declared fields only, builds
 * request bodies from plan actions (resolving secrets from the environment at that moment) and turns a
 * live object back into the YAML-level input that `pull` writes.
 */
import type { Action, FieldChange, ResourceKind } from "../plan/types.js";

export type Env = Readonly<Record<string, string | undefined>>;

/** What `pull` writes for one live object, and the environment variables its placeholders name. */
export interface PulledObject {
  /** The YAML-level object (symbolic levels, `${NAME}` secret placeholders, only non-default fields). */
  input: Record<string, unknown>;
  /** Variables that the placeholders refer to, in order of appearance. */
  variables: string[];
}

export interface KindHandler<Desired, Live, Normalised, Extras> {
  readonly kind: ResourceKind;
  /** Fields the service owns: never compared, never sent. */
  readonly serverOwnedFields: readonly string[];
  /** The comparable shape of a live object (server-owned fields dropped, values normalised). */
  normaliseLive(live: Live, extras?: Extras): Normalised;
  /** Changes for the declared fields of `desired` that differ from `live`; empty when in sync. */
  compare(desired: Desired, live: Normalised): FieldChange[];
  /**
   * The JSON body to send for a plan action of this kind (undefined when the request has none), with
   * every `SecretRef` resolved from `env`; a missing variable is a `UserError`.
   */
  requestBody(action: Action, env: Env): Record<string, unknown> | undefined;
  /** The YAML-level input for `pull`; planning it against `live` yields no action. */
  toInput(live: Live, extras: Extras): PulledObject;
}
