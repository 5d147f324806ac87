/** Helps a failed exact match: names the file line closest to the first line the caller meant. */

const MAX_LINES_COMPARED = 50_000;

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Sørensen–Dice similarity of character pairs: cheap, and forgiving of small typos. */
function dice(a: Map<string, number>, aLen: number, b: string): number {
  if (aLen < 2 || b.length < 2) return 0;
  let shared = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const used = seen.get(g) ?? 0;
    if (used < (a.get(g) ?? 0)) {
      shared++;
      seen.set(g, used + 1);
    }
  }
  return (2 * shared) / (aLen - 1 + b.length - 1);
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function nearestLineHint(text: string, wanted: string): string {
  const first = wanted.split(/\r?\n/).find((l) => l.trim() !== '');
  if (!first) return '';
  const target = squash(first);
  const targetGrams = bigrams(target);
  const lines = text.split('\n', MAX_LINES_COMPARED);
  let best = { score: 0, line: 0, text: '' };
  for (const [i, line] of lines.entries()) {
    const candidate = squash(line);
    if (candidate === '' || candidate.length > 4 * target.length + 20) continue;
    if (candidate === target) {
      return ` Line ${i + 1} matches its first line except for whitespace or indentation: ${JSON.stringify(line.replace(/\r$/, ''))}.`;
    }
    const score = dice(targetGrams, target.length, candidate);
    if (score > best.score) best = { score, line: i + 1, text: line.replace(/\r$/, '') };
  }
  if (best.score < 0.5) return '';
  const shown = best.text.length > 200 ? `${best.text.slice(0, 200)}…` : best.text;
  return ` The most similar line is ${best.line}: ${JSON.stringify(shown)}.`;
}
