/**
 * Pull: every live object of a project, one YAML file per kind, such that planning the files against
 * the same live state gives no action. Kinds are read one after the other (each reads its own list);
 * a kind whose items name objects of another kind (of the `registry`, pulled with it or not) reads
 * that kind's list once, shared, to write the names.
 */

import type { LiveObject } from "../plan/types.js";
import type { ServiceClient } from "../service/index.js";
import { pullDocument, pullFileName } from "./document.js";
import type { PullContext, PullKind } from "./kinds.js";

export interface PulledFile {
  kind: string;
  /** File name, e.g. `batch-exports.yaml`. */
  name: string;
  text: string;
  /** How many objects it declares. */
  objects: number;
  /** Environment variables its secret placeholders name. */
  variables: string[];
  /** Live keys left out because the configuration format refuses them, one sentence per object. */
  leftOut: string[];
}

export async function pullFiles(
  kinds: readonly PullKind[],
  client: ServiceClient,
  project: number,
  schemaLocation: (fileName: string) => string,
  registry: readonly PullKind[] = kinds,
): Promise<PulledFile[]> {
  const files: PulledFile[] = [];
  const lists = new Map<string, Promise<LiveObject[]>>();
  const context: PullContext = {
    kinds: kinds.map((k) => k.name),
    live(name) {
      const kind = registry.find((k) => k.name === name);
      if (kind?.listLive === undefined) return undefined;
      let list = lists.get(name);
      if (list === undefined) {
        list = kind.listLive(client, project);
        lists.set(name, list);
      }
      return list;
    },
  };
  for (const kind of kinds) {
    const pulled = await kind.pull(client, project, context);
    const name = pullFileName(kind);
    const leftOut: string[] = [];
    files.push({
      kind: kind.name,
      name,
      text: pullDocument(kind, project, pulled, schemaLocation(name), leftOut),
      objects: pulled.items.length,
      variables: [...new Set(pulled.variables)],
      leftOut,
    });
  }
  return files;
}
