/**
 * A static cohort's CSV upload (service-api.md §12.5; posthog/api/cohort.py `_calculate_static_by_csv`):
 * one column of distinct ids (a first cell naming a person id or email column is a header), or several
 * columns of which one is headed `person_id` / `person-id` / `Person .id`, else `distinct_id` /
 * `distinct-id`, else `email` / `e-mail` (in that preference, headers compared without case); rows too
 * short for that column are skipped, cells trimmed, blank ones dropped. The ids found are what the
 * population then looks for (cohort-calculation.ts); the 400s are the service's, attr `csv`.
 */
import { invalid } from "../errors.js";

const PERSON_ID_HEADERS = ["person_id", "person-id", "person .id"];
const DISTINCT_ID_HEADERS = ["distinct_id", "distinct-id"];
const EMAIL_HEADERS = ["email", "e-mail"];

export const CSV_MESSAGES = {
  empty: "CSV file is empty. Please upload a CSV file with at least one row of data.",
  missingColumn: (columns: string) =>
    `Multi-column CSV must contain at least one column with a supported ID header: 'person_id', 'Person .id' (PostHog export format), 'distinct_id', 'distinct-id', or 'email'. Found columns: ${columns}`,
  noIds:
    "CSV file contains no valid person IDs, distinct IDs, or email addresses. Please ensure your file has data rows with person IDs, distinct IDs, or email addresses.",
  encoding: "CSV file encoding is not supported. Please save your file as UTF-8 and try again.",
};

export interface CsvIds {
  id_type: "distinct_id" | "person_id" | "email";
  ids: string[];
}

/** Python's `csv.reader` over `str.splitlines()`: quoted cells, doubled quotes inside them. */
function readRows(text: string): string[][] {
  return text.split(/\r\n|\r|\n/).map((line) => {
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"' && cell === "") quoted = true;
      else if (ch === ",") {
        cells.push(cell);
        cell = "";
      } else cell += ch;
    }
    if (line === "") return [];
    cells.push(cell);
    return cells;
  });
}

/** The ids an uploaded CSV names, or the service's 400. */
export function readCsvIds(content: Buffer): CsvIds {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(content);
  } catch {
    throw invalid(CSV_MESSAGES.encoding, "csv");
  }
  if (text.startsWith("\ufeff")) text = text.slice(1);
  const rows = readRows(text);
  const first = rows.findIndex((row) => row.length > 0);
  if (first === -1) throw invalid(CSV_MESSAGES.empty, "csv");
  const header = rows[first] as string[];
  const rest = rows.slice(first + 1);
  const cell = (value: string | undefined) => (value ?? "").trim();
  let result: CsvIds;
  if (header.filter((c) => c.trim() !== "").length <= 1) {
    const head = cell(header[0]).toLowerCase();
    const typed = PERSON_ID_HEADERS.includes(head)
      ? "person_id"
      : EMAIL_HEADERS.includes(head)
        ? "email"
        : null;
    const ids = typed === null && cell(header[0]) !== "" ? [cell(header[0])] : [];
    for (const row of rest) if (row.length > 0 && cell(row[0]) !== "") ids.push(cell(row[0]));
    result = { id_type: typed ?? "distinct_id", ids };
  } else {
    const lower = header.map((h) => h.trim().toLowerCase());
    let column = lower.findIndex((h) => PERSON_ID_HEADERS.includes(h));
    let idType: CsvIds["id_type"] = "person_id";
    if (column === -1) {
      column = lower.findIndex((h) => DISTINCT_ID_HEADERS.includes(h));
      idType = "distinct_id";
    }
    if (column === -1) {
      column = lower.findIndex((h) => EMAIL_HEADERS.includes(h));
      idType = "email";
    }
    if (column === -1) {
      const found = header.filter((h) => h.trim() !== "");
      throw invalid(CSV_MESSAGES.missingColumn(found.length > 0 ? found.join(", ") : "none"), "csv");
    }
    const ids: string[] = [];
    for (const row of rest) {
      if (row.length <= column) continue;
      const value = cell(row[column]);
      if (value !== "") ids.push(value);
    }
    result = { id_type: idType, ids };
  }
  if (result.ids.length === 0) throw invalid(CSV_MESSAGES.noIds, "csv");
  return result;
}
