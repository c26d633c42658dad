/**
 * CSV rendering of a list of objects like the service's CSV renderer: nested objects are flattened to
 * dotted column names (`properties.$browser`), columns in order of first appearance.
 */
function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      flatten(v, prefix ? `${prefix}.${i}` : String(i), out);
    });
    return;
  }
  out.set(prefix, value === null || value === undefined ? "" : String(value));
}

function cell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: unknown[]): string {
  const flat = rows.map((row) => {
    const out = new Map<string, string>();
    flatten(row, "", out);
    return out;
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of flat) {
    for (const key of row.keys()) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  const lines = [columns.map(cell).join(",")];
  for (const row of flat) lines.push(columns.map((c) => cell(row.get(c) ?? "")).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
