// Prints one aligned text table per section.

/**
 * @param {string} title
 * @param {string[]} header
 * @param {string[][]} rows  already formatted cells
 * @param {string[]} [notes] lines printed under the table
 */
export function printTable(title, header, rows, notes = []) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  // The first column is text (left-aligned); the rest are numbers (right-aligned).
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]))).join('  ');
  console.log(`\n## ${title}\n`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  for (const n of notes) console.log(`  * ${n}`);
}
