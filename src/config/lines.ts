/**
 * Offsets → 1-based line and column, counting `\n` as the only line break (the fast parse path is only
 * taken for text without a lone `\r`, so this agrees with the YAML parser's own line counting). The
 * index of line starts is built on first use: a file without diagnostics or sources never pays for it.
 */
export class LineIndex {
  #starts: number[] | undefined;

  constructor(private readonly text: string) {}

  position(offset: number): { line: number; column: number } {
    const starts = this.#lineStarts();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  }

  #lineStarts(): number[] {
    if (this.#starts === undefined) {
      const starts = [0];
      for (let i = this.text.indexOf("\n"); i !== -1; i = this.text.indexOf("\n", i + 1)) starts.push(i + 1);
      this.#starts = starts;
    }
    return this.#starts;
  }
}
