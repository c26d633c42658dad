/**
 * `promote --adopt` (SPEC §9), pure: the live objects of the source environment that no file declares
 * become declarations of the shared files, as `pull` writes them (references by name, secrets as
 * `${NAME}`, live `${` as `$${`) and never with an id: the pin is dropped, and an object that still
 * names another by id (a tile's insight whose name is not its own, a cohort by id, an integration by
 * number) is left out, saying why, as is what the service makes by itself (a flag's usage dashboard)
 * and an object whose name some file already declares (an overlay's own, or one excluded there).
 *
 * Each kind's objects go to the first shared file serving both environments that lists that kind
 * (else one named as `pull` names the kind's file), appended to its list; without one, a new shared
 * file is written beside the others.
 */
import { posix } from "node:path";
import { stringify } from "yaml";
import { splitPointer } from "../config/environments/document.js";
import type { EnvironmentRules, KindWords } from "../config/kinds.js";
import type { ObjectRef } from "../plan/types.js";
import { compareText } from "../plan/values.js";
import { pullFileName } from "../pull/document.js";
import { escapeItem, printableYaml, YAML_TEXT } from "../pull/escape.js";
import { Placeholder } from "../pull/kinds.js";
import type { YamlEdit } from "../yaml-edit/index.js";
import type { PromoteKind } from "./kinds.js";
import { nodesAt } from "./preflight.js";

type Data = Record<string, unknown>;

export interface AdoptKind extends Pick<PromoteKind, "name" | "generated"> {
  readonly key: string;
  readonly words: KindWords;
  readonly identityKey?: string;
  readonly environments?: EnvironmentRules;
}

export interface SharedFile {
  path: string;
  /** Its parsed data. */
  data: unknown;
  /** It serves every environment (`environments: all`). */
  all: boolean;
}

export interface AdoptInput {
  kinds: readonly AdoptKind[];
  /** The live objects no file declares for the source environment (its plan's `undeclared`). */
  undeclared: readonly ObjectRef[];
  /** Every pulled item of each kind read, by kind name, with its id. */
  pulled: ReadonlyMap<string, readonly Data[]>;
  /** The shared files serving both environments, in load order. */
  targets: readonly SharedFile[];
  /** Every file's data (overlays too), by path: names declared anywhere are never adopted again. */
  files: ReadonlyMap<string, unknown>;
  /** The folder a new shared file goes in (as files are shown: relative, with `/`). */
  folder: string;
  /** The lines a new file starts with (a schema modeline, where it came from). */
  header: (fileName: string) => string[];
  /** The secret a value holds (the run's scrubber: `(secret from $NAME)`), if any: never written. */
  secretIn?: (value: unknown) => string | undefined;
}

export interface Adopted {
  kind: string;
  name: string;
  file: string;
}

export interface LeftOut {
  kind: string;
  name: string;
  why: string;
}

export interface Adoption {
  /** Edits of existing files, by path. */
  edits: Map<string, YamlEdit[]>;
  /** New files, by path: their text. */
  created: Map<string, string>;
  adopted: Adopted[];
  leftOut: LeftOut[];
  /** Secret variables the adopted objects' placeholders name. */
  variables: string[];
}

export function adopt(input: AdoptInput): Adoption {
  const out: Adoption = { edits: new Map(), created: new Map(), adopted: [], leftOut: [], variables: [] };
  const generated = new Map<string, string>();
  for (const kind of input.kinds) {
    for (const item of input.pulled.get(kind.name) ?? []) {
      const by = `${kind.words.one} ${JSON.stringify(String(item[kind.identityKey ?? "name"] ?? ""))}`;
      for (const g of kind.generated?.(item) ?? []) generated.set(`${g.kind}\0${g.name}`, by);
    }
  }
  for (const kind of input.kinds) {
    const identity = kind.identityKey ?? "name";
    const refs = input.undeclared.filter((r) => r.kind === kind.name);
    if (refs.length === 0) continue;
    const pulled = input.pulled.get(kind.name) ?? [];
    const byId = new Map(pulled.map((item) => [String(item.id), item]));
    const holders = new Map<string, number>();
    for (const item of pulled) {
      const name = String(item[identity] ?? "");
      holders.set(name, (holders.get(name) ?? 0) + 1);
    }
    const named = namedIn(input.files, kind.key, identity);
    const items: Data[] = [];
    for (const ref of [...refs].sort((a, b) => compareText(a.name, b.name))) {
      const leave = (why: string) => out.leftOut.push({ kind: kind.name, name: ref.name, why });
      const item = byId.get(String(ref.id));
      if (item === undefined) continue;
      const name = String(item[identity] ?? "");
      const maker = generated.get(`${kind.name}\0${name}`);
      if (maker !== undefined) {
        leave(`the service made it for ${maker}`);
        continue;
      }
      if (name.trim() === "") {
        leave(`it has no ${identity}: name it in the source environment first`);
        continue;
      }
      if ((holders.get(name) ?? 0) > 1) {
        leave(`several live ${kind.words.many} have this ${identity}: rename them apart first`);
        continue;
      }
      const file = named.get(name);
      if (file !== undefined) {
        leave(`${file} declares this ${identity} already`);
        continue;
      }
      const portable = withoutIds(item, kind.environments);
      if ("why" in portable) {
        leave(portable.why);
        continue;
      }
      const written = escapeItem(portable.item) as Data;
      const secret = input.secretIn?.(written);
      if (secret !== undefined) {
        leave(`its live fields hold ${secret}, which is never written to a file`);
        continue;
      }
      out.variables.push(...placeholders(portable.item));
      items.push(written);
    }
    if (items.length === 0) continue;
    const target = targetFile(input, kind);
    for (const item of items) {
      out.adopted.push({ kind: kind.name, name: String(item[identity] ?? ""), file: target.path });
    }
    if (target.existing === undefined) {
      const fresh = out.created.get(target.path);
      const text =
        fresh ??
        `${input.header(posix.basename(target.path)).join("\n")}\n${printableYaml(stringify({ environments: "all" }, YAML_TEXT))}`;
      out.created.set(target.path, `${text}\n${printableYaml(stringify({ [kind.key]: items }, YAML_TEXT))}`);
      continue;
    }
    const list = (target.existing.data as Data | null)?.[kind.key];
    const value = Array.isArray(list) ? [...list, ...items] : items;
    const edits = out.edits.get(target.path) ?? [];
    edits.push({ set: [kind.key], value });
    out.edits.set(target.path, edits);
  }
  out.variables = [...new Set(out.variables)];
  return out;
}

/** Where a kind's adopted objects go: an existing shared file, or a new one. */
function targetFile(input: AdoptInput, kind: AdoptKind): { path: string; existing?: SharedFile } {
  const ordered = [...input.targets.filter((t) => t.all), ...input.targets.filter((t) => !t.all)];
  const listing = ordered.find((t) => Array.isArray((t.data as Data | null)?.[kind.key]));
  if (listing !== undefined) return { path: listing.path, existing: listing };
  const name = pullFileName(kind);
  const same = ordered.find((t) => posix.basename(t.path) === name);
  if (same !== undefined) return { path: same.path, existing: same };
  return { path: input.folder === "" ? name : `${input.folder}/${name}` };
}

/** Each identity the files' lists of `key` name, with the first file naming it. */
function namedIn(files: ReadonlyMap<string, unknown>, key: string, identity: string): Map<string, string> {
  const named = new Map<string, string>();
  for (const [path, data] of files) {
    const list = (data as Data | null)?.[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const name = (item as Data | null)?.[identity];
      if (typeof name === "string" && !named.has(name)) named.set(name, path);
    }
  }
  return named;
}

/**
 * The item without its pin (a rule of one key at the item's top, such as `/id`), or why it cannot go
 * into a shared file: another of the kind's id places holds a value.
 */
function withoutIds(item: Data, rules: EnvironmentRules | undefined): { item: Data } | { why: string } {
  const out: Data = { ...item };
  const ids = rules?.projectIds ?? [];
  for (const rule of ids) {
    const segments = splitPointer(rule.path);
    if (segments.length === 1 && rule.where === undefined) delete out[segments[0] as string];
  }
  for (const rule of ids) {
    for (const found of nodesAt(out, rule)) {
      if (rule.numbers === true && typeof found.value !== "number") continue;
      const field = splitPointer(found.pointer).join(".");
      return {
        why: `${field} names another object by its id (${JSON.stringify(found.value)}), which is right for one project only: give it a name of its own, or declare it by hand`,
      };
    }
  }
  return { item: out };
}

function placeholders(value: unknown): string[] {
  if (value instanceof Placeholder) return [value.variable];
  if (Array.isArray(value)) return value.flatMap(placeholders);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(placeholders);
  return [];
}
