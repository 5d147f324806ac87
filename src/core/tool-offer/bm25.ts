import type { HubTool } from '../mcp/types';

/** Okapi BM25's usual constants: how fast a repeated word stops adding, and how much a long text is discounted. */
const K1 = 1.2;
const B = 0.75;

/** Lower-case words and numbers; `get_weather`, `getWeather` and `get-weather` all give "get", "weather". */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/**
 * What a tool is found by, as the API's own tool search reads it: its name, description and argument
 * names and descriptions, plus its server and title. The name counts twice: it is what a person or
 * model is most likely to remember.
 */
function toolText(t: HubTool): string {
  const props = ((t.tool.inputSchema as { properties?: Record<string, { description?: unknown }> }).properties ?? {}) as Record<
    string,
    { description?: unknown }
  >;
  const args = Object.entries(props).flatMap(([name, p]) => [name, typeof p?.description === 'string' ? p.description : '']);
  return [t.qualifiedName, t.qualifiedName, t.server, t.tool.title ?? '', t.tool.description ?? '', ...args].join(' ');
}

/** Ranks tools against a query of words with BM25; a query that is a tool's exact name ranks that tool first. */
export function rankTools(tools: readonly HubTool[], query: string, limit: number): HubTool[] {
  const exact = tools.find((t) => t.qualifiedName === query.trim() || t.tool.name === query.trim());
  const terms = [...new Set(words(query))];
  const docs = tools.map((t) => {
    const counts = new Map<string, number>();
    const all = words(toolText(t));
    for (const w of all) counts.set(w, (counts.get(w) ?? 0) + 1);
    return { t, counts, length: all.length };
  });
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const idf = new Map(
    terms.map((term) => {
      const n = docs.filter((d) => d.counts.has(term)).length;
      return [term, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
    }),
  );
  const scored = docs
    .map((d) => ({
      t: d.t,
      score: terms.reduce((s, term) => {
        const f = d.counts.get(term) ?? 0;
        return s + (f === 0 ? 0 : (idf.get(term)! * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg)));
      }, 0),
    }))
    .filter((d) => d.score > 0 && d.t !== exact)
    .sort((a, b) => b.score - a.score)
    .map((d) => d.t);
  return [...(exact ? [exact] : []), ...scored].slice(0, limit);
}
