/**
 * `pull --env E` (SPEC §9): what adopting environment E writes into its overlay. A live object that
 * E's shared declarations name gets its pin there (`name` and `id` only: the shared files keep the
 * rest); a live object no file declares for E is written whole, as E's own. Objects E's overlays pin
 * or declare already, and those they exclude, are left as they are.
 */
import { stringify } from "yaml";
import type { Declared } from "../config/types.js";
import { compareText } from "../plan/values.js";
import { escapeItem, printableYaml, YAML_TEXT } from "./escape.js";
import type { Pulled, PullKind } from "./kinds.js";

export interface OverlayKindInput {
  kind: PullKind & { identityKey?: string };
  pulled: Pulled;
  /** E's merged declarations of this kind. */
  declared: readonly Declared[];
  /** The files that are E's overlays: a declaration from one of them is E's own already. */
  overlays: ReadonlySet<string>;
  /** Identities E's overlays exclude. */
  excluded: ReadonlySet<string>;
  /** Identities E's overlays name already (a second entry would be an error): their pins are said, not written. */
  named: ReadonlyMap<string, string>;
}

export interface OverlayKind {
  key: string;
  items: Record<string, unknown>[];
  pins: number;
  own: number;
  /** One sentence per live object left out, and why. */
  skipped: string[];
  variables: string[];
}

export function overlayKind(input: OverlayKindInput): OverlayKind {
  const { kind, pulled, declared } = input;
  const identity = kind.identityKey ?? "name";
  const byName = new Map<string, Declared[]>();
  for (const d of declared) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  const live = new Map<string, number>();
  for (const item of pulled.items) {
    const name = String(item[identity] ?? "");
    live.set(name, (live.get(name) ?? 0) + 1);
  }
  const pinnedIds = new Set(declared.flatMap((d) => (d.id === undefined ? [] : [String(d.id)])));
  const out: OverlayKind = { key: kind.key, items: [], pins: 0, own: 0, skipped: [], variables: [] };
  const sorted = [...pulled.items].sort((a, b) =>
    compareText(String(a[identity] ?? ""), String(b[identity] ?? "")),
  );
  for (const item of sorted) {
    const name = String(item[identity] ?? "");
    const shown = `${kind.words.one} ${JSON.stringify(name)} (id ${String(item.id)})`;
    if (pinnedIds.has(String(item.id))) continue;
    if (input.excluded.has(name)) {
      out.skipped.push(`${shown}: the overlay excludes it`);
      continue;
    }
    const matches = byName.get(name) ?? [];
    const shared = matches.filter((d) => d.id === undefined && !input.overlays.has(d.source.file));
    if (matches.some((d) => input.overlays.has(d.source.file))) continue;
    const overlay = input.named.get(name);
    if (shared.length > 0 && overlay !== undefined) {
      out.skipped.push(`${shown}: ${overlay} names it already; add \`id: ${String(item.id)}\` there`);
      continue;
    }
    if (shared.length > 0) {
      if ((live.get(name) ?? 0) > 1) {
        out.skipped.push(`${shown}: several live ${kind.words.many} have this ${identity}; pin one by hand`);
        continue;
      }
      out.items.push({ [identity]: name, id: item.id });
      out.pins += 1;
      continue;
    }
    out.items.push(item);
    out.own += 1;
  }
  out.variables = out.own > 0 ? [...new Set(pulled.variables)] : [];
  return out;
}

/** The overlay file: a modeline, a header, `overlay: E`, then each kind's pins and own objects. */
export function overlayDocument(
  environment: string,
  project: number,
  kinds: readonly OverlayKind[],
  schemaLocation: string,
): string {
  const variables = [...new Set(kinds.flatMap((k) => k.variables))];
  const header = [
    `# yaml-language-server: $schema=${schemaLocation}`,
    `# Pulled from project ${project} by posthog-gitops pull --env ${environment}: pins of the objects the shared`,
    `# files declare, and the objects only ${environment} has.`,
    ...(variables.length > 0 ? [`# Secrets come from the environment: ${variables.join(", ")}`] : []),
  ];
  const body: Record<string, unknown> = { overlay: environment };
  for (const kind of kinds)
    if (kind.items.length > 0) body[kind.key] = kind.items.map((item) => escapeItem(item));
  return `${header.join("\n")}\n${printableYaml(stringify(body, YAML_TEXT))}`;
}
