/**
 * A resource kind: everything the tool knows about one kind of PostHog object lives in its folder
 * (src/kinds/<kind>/) and is handed to the stages through this one object. Each stage declares the part
 * it needs (ConfigKind, PlanKind, ReadKind, ApplyKind, RenderKind, PullKind) and never branches on a
 * kind's name; adding a kind is a folder and a line in src/kinds/index.ts.
 */
import type { ApplyKind } from "../apply/kinds.js";
import type { ConfigKind } from "../config/kinds.js";
import type { PlanKind } from "../plan/kinds.js";
import type { PullKind } from "../pull/kinds.js";
import type { ReadKind } from "../read/kinds.js";
import type { RenderKind } from "../render/kinds.js";

export type Kind = ConfigKind & PlanKind & ReadKind & ApplyKind & RenderKind & PullKind;
