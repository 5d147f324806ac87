/**
 * Waits for a server to say a URL elicitation is complete (`notifications/elicitation/complete`, 2025-11-25): a
 * tool call that needed the person in their browser (-32042) is made again once they finished there. A
 * completion that comes before anyone waits is kept for a while, so none is missed.
 */
export class CompletionWaits {
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly early = new Map<string, NodeJS.Timeout>();

  complete(elicitationId: string): void {
    const waiters = this.waiting.get(elicitationId);
    if (waiters) {
      this.waiting.delete(elicitationId);
      for (const w of waiters) w();
      return;
    }
    clearTimeout(this.early.get(elicitationId));
    this.early.set(elicitationId, setTimeout(() => this.early.delete(elicitationId), 10 * 60_000).unref());
  }

  /** Resolves once the elicitation is complete; rejects with the signal's reason if it aborts first. */
  wait(elicitationId: string, signal: AbortSignal): Promise<void> {
    const done = this.early.get(elicitationId);
    if (done) {
      clearTimeout(done);
      this.early.delete(elicitationId);
      return Promise.resolve();
    }
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const waiter = (): void => {
        signal.removeEventListener('abort', stop);
        resolve();
      };
      const stop = (): void => {
        const list = this.waiting.get(elicitationId)?.filter((w) => w !== waiter);
        if (list?.length) this.waiting.set(elicitationId, list);
        else this.waiting.delete(elicitationId);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', stop, { once: true });
      this.waiting.set(elicitationId, [...(this.waiting.get(elicitationId) ?? []), waiter]);
    });
  }
}
