import type { SessionStore } from './session-store';

/**
 * At start: sessions left `running` by a process that is gone (killed mid-turn) become
 * `interrupted`, resumable. One whose process still runs (another orchestrator on this workspace)
 * is left alone.
 */
export async function recoverSessions(store: SessionStore, changed: (name: string) => void): Promise<void> {
  for (const record of await store.list()) {
    if (record.status !== 'running') continue;
    if (record.pid !== undefined && record.pid !== process.pid && isAlive(record.pid)) continue;
    await store.write({
      ...record,
      status: 'interrupted',
      detail: 'The orchestrator stopped in the middle of a turn (it was killed or crashed). resume_agent continues the session.',
      pid: undefined,
    });
    changed(record.name);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
