/**
 * A resource kind: everything the tool knows about one kind of PostHog object lives in its folder
 * (src/kinds/<kind>/) and is handed to the stages through this one object. Each stage declares the part
 * it needs (ConfigKind, PlanKind, ReadKind, ApplyKind, RenderKind, PullKind, and of a verb PlanVerb,
 * RenderVerb, ApplyVerb, RefreshVerb) and never branches on a kind's name; adding a kind is a folder and
 * a line in src/kinds/index.ts. Kinds are written with `defineKind` (./define/index.ts).
 */
import type { ApplyKind, ApplyVerb, Executed, ReferencedIds } from "../apply/kinds.js";
import type { ConfigKind } from "../config/kinds.js";
import type { PlanKind, PlanVerb } from "../plan/kinds.js";
import type { Env } from "../plan/secrets.js";
import type { Action } from "../plan/types.js";
import type { PromoteKind } from "../promote/kinds.js";
import type { PullKind, RefreshVerb } from "../pull/kinds.js";
import type { ReadKind, ReadVerb } from "../read/kinds.js";
import type { RenderKind, RenderVerb } from "../render/kinds.js";
import type { KindScopes } from "../scopes.js";
import type { AnswerShape, ServiceClient } from "../service/index.js";

/**
 * An action verb as a kind declares it: how it plans (step, sides, destructive), how it shows (symbol,
 * word, summary phrase, detail), which YAML values `pull --refresh` takes from it, and, for apply, the
 * body it sends and the request that carries it out on the live object `id`.
 */
export interface Verb extends PlanVerb, RenderVerb, ApplyVerb, RefreshVerb, ReadVerb {
  readonly name: string;
  readonly step: number;
  readonly destructive: boolean | "depends";
  readonly deletes?: boolean;
  /**
   * The JSON body (secrets resolved from `env`; `owner`, e.g. `batch export "x"`, names the object in
   * a missing variable's error; the objects the action `requires` by the ids `referenced` gives, when
   * given); absent or undefined: the request has none.
   */
  readonly body?: (
    action: Action,
    env: Env,
    owner: string,
    referenced?: ReferencedIds,
  ) => Record<string, unknown> | undefined;
  /**
   * Carries the action out on the live object `id`. Answers that mean the goal is already reached
   * count as success, so an apply after a partial failure converges. Absent for `create`, which the
   * kind's service part does (it has no id yet).
   */
  readonly send?: (
    client: ServiceClient,
    action: Action,
    id: number | string,
    body: Record<string, unknown> | undefined,
    referenced?: ReferencedIds,
  ) => Promise<Executed>;
}

export interface Kind extends ConfigKind, PlanKind, ReadKind, ApplyKind, RenderKind, PullKind, PromoteKind {
  readonly verbs: readonly Verb[];
  /**
   * The shapes of the kind's answers, by name (its answers.ts): its requests name them as `expect`,
   * and test/service/shapes.test.ts checks every kind's against the meta-schema and the OpenAPI.
   */
  readonly answers: Readonly<Record<string, AnswerShape>>;
  /**
   * The personal API key scopes reading (plan), writing (apply) and pulling its objects need, each with
   * the case it is needed in: src/commands/scopes.ts composes them per command for README's table and
   * `whoami`, and test/cli/scopes.e2e.test.ts holds them to what the emulator asks.
   */
  readonly scopes: KindScopes;
}
