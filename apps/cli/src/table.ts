/** Longest cell shown; longer text ends in "…" (the full value is in `--json` output and `show`). */
const MAX_CELL = 60;

/** A plain-text table: a header row, then one line per row, columns padded to their widest cell. */
export function table(headers: string[], rows: string[][]): string {
  const cells = [headers, ...rows].map((row) => row.map((cell) => clip(oneLine(cell))));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => [...(row[column] ?? '')].length)));
  return cells.map((row) => row.map((cell, column) => pad(cell, column === row.length - 1 ? 0 : widths[column])).join('  ')).join('\n');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function clip(text: string): string {
  const chars = [...text];
  return chars.length > MAX_CELL ? `${chars.slice(0, MAX_CELL - 1).join('')}…` : text;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}
