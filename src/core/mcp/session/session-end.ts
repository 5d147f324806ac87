/**
 * The end of a session (its process exited, its HTTP session was lost), which every request waiting on it must
 * see at once rather than at its timeout.
 *
 * Why not `Promise.race([request, ended])`: each race adds a reaction to `ended`, and a session's `ended` stays
 * pending for the whole session, so every request it ever made stayed reachable from it, and every major GC
 * walked them all. Here a request is held only while it waits.
 */
export class SessionEnd {
  private readonly waiting = new Set<(reason: unknown) => void>();
  private reason: { why: unknown } | undefined;

  /** `p`, or the end's reason if the session ends first. */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.reason) {
      p.catch(() => undefined);
      return Promise.reject(this.reason.why);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      p.then(
        (value) => {
          this.waiting.delete(reject);
          resolve(value);
        },
        (err: unknown) => {
          this.waiting.delete(reject);
          reject(err);
        },
      );
    });
  }

  /** Fails every request waiting now and every later one with `why`; only the first end counts. */
  end(why: unknown): void {
    if (this.reason) return;
    this.reason = { why };
    for (const reject of this.waiting) reject(why);
    this.waiting.clear();
  }
}
