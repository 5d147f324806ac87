/**
 * A minimal typed event emitter. `on` returns an unsubscribe function, which fits VS Code's
 * `Disposable` (`{ dispose: off }`) without this module knowing about VS Code. A listener that
 * throws does not stop the others.
 */
export class TypedEmitter<Events extends Record<string, (...args: never[]) => void>> {
  private readonly listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  on<K extends keyof Events>(event: K, listener: Events[K]): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  protected emit<K extends keyof Events>(event: K, ...args: Parameters<Events[K]>): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (...a: Parameters<Events[K]>) => void)(...args);
      } catch (err) {
        console.error(`listener for "${String(event)}" threw:`, err);
      }
    }
  }

  protected removeAllListeners(): void {
    this.listeners.clear();
  }
}
