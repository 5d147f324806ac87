// apt-get for the set-up scripts (`npm start`, `npm test`): waits, bounded, while another apt or dpkg process
// holds the lock (a fresh machine often runs unattended upgrades at boot) instead of failing at once.
// Types: apt.d.mts.
import { spawnSync } from 'node:child_process';

const LOCK_MESSAGE = /Could not get lock|Unable to lock (the )?(directory|administration directory)|is another process using it/i;
const DEFAULT_WAIT_MS = 5 * 60_000;
const RETRY_MS = 2000;

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `apt-get <args>` as root, non-interactively. dpkg's own lock is waited for by apt itself
 * (DPkg::Lock::Timeout); `apt-get update` ignores that option for the package lists' lock, so a failure
 * naming a lock is retried until `waitMs` has passed. Throws with apt's output on any other failure.
 * @param {string[]} args @param {{ waitMs?: number, say?: (line: string) => void }} [opts]
 */
export function aptGet(args, opts = {}) {
  const waitMs = opts.waitMs ?? DEFAULT_WAIT_MS;
  const say = opts.say ?? ((line) => console.log(`[apt] ${line}`));
  const deadline = Date.now() + waitMs;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const full = ['-o', `DPkg::Lock::Timeout=${Math.ceil(waitMs / 1000)}`, ...args];
  let waited = false;
  for (;;) {
    say(`$ apt-get ${args.join(' ')}`);
    const r = spawnSync('apt-get', full, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    if (r.status === 0) {
      if (r.stdout) process.stdout.write(r.stdout);
      return;
    }
    if (r.error) throw new Error(`apt-get could not run: ${r.error.message}`);
    if (!LOCK_MESSAGE.test(output)) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status ?? r.signal}):\n${output.trim()}`);
    if (Date.now() >= deadline) {
      throw new Error(
        `apt-get ${args.join(' ')}: another apt or dpkg process still holds its lock after ${Math.round(waitMs / 1000)} s ` +
          `(${
            output
              .trim()
              .split('\n')
              .find((l) => LOCK_MESSAGE.test(l)) ?? 'lock held'
          }). Wait for it to finish, then run this again.`,
      );
    }
    if (!waited) say(`another apt or dpkg process holds the lock; waiting up to ${Math.round(waitMs / 1000)} s for it`);
    waited = true;
    sleep(Math.min(RETRY_MS, Math.max(0, deadline - Date.now())));
  }
}
