/**
 * `render --env E` (SPEC §9): what environment E gets, as one single-project document: `project:` set,
 * pins and variables resolved, secrets as `${NAME}` references (to the variable E reads each from), so
 * that planning this document plans exactly what `plan --env E` does. In YAML, a value an overlay set
 * carries a comment citing the overlay's file:line, a list an overlay replaced says so, a value a
 * variable gave names it, and the header lists what the overlays left out. Pure.
 */
import { Document, isMap, isScalar, isSeq, type Node as YamlNode } from "yaml";
import type { MergedDocument } from "../config/environments/document.js";
import type { EnvironmentEntry, Mark } from "../config/environments/types.js";
import { printableYaml, YAML_TEXT } from "./escape.js";

export type DocumentFormat = "yaml" | "json";

export function renderEnvironmentDocument(
  document: MergedDocument,
  entry: EnvironmentEntry,
  format: DocumentFormat,
  declaredIn: string,
  kinds: ReadonlyArray<{ key: string; words: { one: string } }>,
): string {
  if (format === "json") return `${JSON.stringify(document.data, null, 2)}\n`;
  const marks = new Map<string, Mark[]>();
  for (const mark of document.marks) marks.set(mark.pointer, [...(marks.get(mark.pointer) ?? []), mark]);
  const yaml = new Document(document.data);
  annotate(yaml.contents as YamlNode, "", marks);
  const left = document.marks.filter((m) => m.how === "excluded" && /^\/[^/]+$/.test(m.pointer));
  const header = [
    `posthog-gitops render --env ${entry.name}: what environment ${entry.name} gets (project ${entry.project}${entry.host ? ` on ${entry.host}` : ""}), from ${declaredIn} and the files serving it.`,
    "A comment cites the overlay (or the variable) a value came from; secrets stay ${NAME} references.",
    ...left.map(
      (m) =>
        `Left out here by ${at(m)}: ${kinds.find((k) => `/${k.key}` === m.pointer)?.words.one ?? m.pointer.slice(1)} ${JSON.stringify(m.detail ?? "")}.`,
    ),
  ];
  yaml.commentBefore = header.map((line) => ` ${line}`).join("\n");
  return printableYaml(yaml.toString(YAML_TEXT));
}

function at(mark: Mark): string {
  return `${mark.source.file}:${mark.source.line}`;
}

/** The comment a mark gives its node. */
function words(mark: Mark): string {
  switch (mark.how) {
    case "set":
      return `from ${at(mark)}`;
    case "added":
      return `added by ${at(mark)}`;
    case "replaced":
      return `replaced by ${at(mark)} (the shared list${mark.detail ? ` at ${mark.detail}` : ""} is not used here)`;
    case "variable":
      return `\${${mark.detail ?? ""}} (${at(mark)})`;
    case "secret":
      return `secret ${mark.detail ?? ""} read from its variable here (${at(mark)})`;
    case "unmanaged":
      return `${mark.pointer.split("/").at(-1) ?? ""}: left unmanaged here by ${at(mark)}`;
    case "excluded":
      return `${mark.detail ?? ""}: left out here by ${at(mark)}`;
  }
}

function annotate(
  node: YamlNode | null | undefined,
  pointer: string,
  marks: ReadonlyMap<string, Mark[]>,
): void {
  if (isMap(node)) {
    const keys = new Set<string>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      keys.add(key);
      const child = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      const said = present(marks.get(child));
      const value = pair.value as YamlNode | null;
      if (said.length > 0) {
        if (isScalar(value)) value.comment = ` ${said.join("; ")}`;
        else if (isScalar(pair.key)) pair.key.commentBefore = said.map((s) => ` ${s}`).join("\n");
      }
      annotate(value, child, marks);
    }
    // What an overlay left unmanaged or excluded under this mapping is no longer in it: said before it.
    // (A whole declaration left out is in the header.)
    const gone =
      pointer === ""
        ? []
        : [...marks.entries()]
            .filter(([p]) => parentOf(p) === pointer)
            .flatMap(([, list]) => list.filter(absent).map(words));
    if (gone.length > 0) {
      node.commentBefore = [node.commentBefore, ...gone.map((g) => ` ${g}`)].filter(Boolean).join("\n");
    }
    return;
  }
  if (isSeq(node)) {
    node.items.forEach((item, i) => {
      const child = `${pointer}/${i}`;
      const said = present(marks.get(child));
      const value = item as YamlNode;
      if (said.length > 0) {
        if (isScalar(value)) value.comment = ` ${said.join("; ")}`;
        else value.commentBefore = said.map((s) => ` ${s}`).join("\n");
      }
      annotate(value, child, marks);
    });
  }
}

/** An overlay's `null` or `exclude`: about a value no longer there. */
function absent(mark: Mark): boolean {
  return mark.how === "unmanaged" || mark.how === "excluded";
}

/** What the marks say of a value that is there. */
function present(list: readonly Mark[] | undefined): string[] {
  return (list ?? []).filter((m) => !absent(m)).map(words);
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf("/"));
}
