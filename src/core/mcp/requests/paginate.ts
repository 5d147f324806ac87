/** Most pages followed for one list; a server that keeps handing out cursors cannot loop us forever. */
const MAX_PAGES = 1000;

/**
 * Follows `nextCursor` until the server stops giving one, one page at a time. Stops at a repeated
 * cursor or after MAX_PAGES pages, keeping what it has.
 */
export async function listAll<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { items, next } = await fetchPage(cursor);
    for (const item of items) out.push(item);
    if (next === undefined || next === '' || seen.has(next)) break;
    seen.add(next);
    cursor = next;
  }
  return out;
}
