/** What went wrong, in words: an Error's message, or whatever was thrown, as text. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
