/**
 * The YAML file `pull` writes for one kind of one project: a schema modeline, a header saying where it
 * came from and which secret variables it needs, then `project:` and the kind's items sorted by name.
 */
import { stringify } from "yaml";
import { compareText } from "../plan/values.js";
import { escapeItem, printableYaml, YAML_TEXT } from "./escape.js";
import type { Pulled, PullKind } from "./kinds.js";

export function pullDocument(
  kind: PullKind,
  project: number,
  pulled: Pulled,
  schemaLocation: string,
  /** Where to say which keys of which object were left out (escape.ts). */
  leftOut: string[] = [],
): string {
  const items = [...pulled.items]
    .sort((a, b) => compareText(String(a.name ?? ""), String(b.name ?? "")))
    .map((item) => {
      const paths: string[] = [];
      const escaped = escapeItem(item, paths);
      if (paths.length > 0) {
        const what = paths.length === 1 ? "this key" : "these keys";
        leftOut.push(
          `${paths.join(" and ")} of ${kind.words.one} ${JSON.stringify(String(item.name ?? ""))}: the configuration format does not allow ${what}`,
        );
      }
      return escaped;
    });
  const variables = [...new Set(pulled.variables)];
  const header = [
    `# yaml-language-server: $schema=${schemaLocation}`,
    `# Pulled from project ${project} by posthog-gitops pull. The id pins keep identity across renames.`,
    ...(variables.length > 0 ? [`# Secrets come from the environment: ${variables.join(", ")}`] : []),
  ];
  return `${header.join("\n")}\n${printableYaml(stringify({ project, [kind.key]: items }, YAML_TEXT))}`;
}

/** The file name a kind's items are pulled into: `batch_exports` → `batch-exports.yaml`. */
export function pullFileName(kind: Pick<PullKind, "key">): string {
  return `${kind.key.replaceAll("_", "-")}.yaml`;
}
