/**
 * What `pull` needs of a resource kind: every live object of a project as the YAML item that declares
 * it, such that planning the pulled files against the same live state gives no action.
 */
import type { KindWords } from "../config/kinds.js";
import type { ServiceClient } from "../service/index.js";

export interface Pulled {
  /** YAML-level items (symbolic levels, `${NAME}` placeholders for secrets, id pins). */
  items: Record<string, unknown>[];
  /** Environment variables the placeholders name, in order of first appearance. */
  variables: string[];
}

export interface PullKind {
  readonly name: string;
  /** The file's list key, e.g. `dashboards`. */
  readonly key: string;
  readonly words: KindWords;
  pull(client: ServiceClient, project: number): Promise<Pulled>;
}
