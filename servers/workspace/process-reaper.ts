import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable every run_code process carries, with a value unique to the run. */
export const RUN_TOKEN_VAR = 'MCP_AGENT_RUN_TOKEN';

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
}

function readStat(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: parse after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // already dead, waiting to be reaped
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]) };
  } catch {
    return undefined;
  }
}

function carriesToken(pid: number, marker: Buffer): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false;
  }
}

/**
 * Every live process of a run on Linux: the leader's process group and session, anything whose
 * environment holds the run's token (a grandchild that called setsid), and all their descendants
 * (one that also dropped the environment, found through the subreaper's family tree).
 */
function findRunProcesses(leader: number, token: string): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
  const marker = Buffer.from(`${RUN_TOKEN_VAR}=${token}\0`);
  const infos = pids.map(readStat).filter((p): p is ProcInfo => p !== undefined && p.pid !== process.pid);
  const found = new Set<number>();
  for (const p of infos) {
    if (p.pid === leader || p.pgrp === leader || p.session === leader || carriesToken(p.pid, marker)) {
      found.add(p.pid);
    }
  }
  // Close over descendants until nothing new turns up.
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of infos) {
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.add(p.pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone already, or not ours
  }
}

/**
 * Kills a run and everything it started. Stops them first (SIGSTOP) so that none can fork a new
 * process between the scan and the kill, then rescans until nothing of the run is left.
 */
export async function killRun(leader: number, token: string): Promise<void> {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(leader), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  if (process.platform !== 'linux') {
    signal(-leader, 'SIGKILL');
    return;
  }
  // Scan before killing the leader: while it lives, orphans it adopted as subreaper are found
  // through it; once it dies they pass to init, and one that left the session and dropped the
  // environment would be lost.
  for (let round = 0; round < 10; round++) {
    const pids = findRunProcesses(leader, token);
    if (pids.length === 0) return;
    for (const pid of pids) signal(pid, 'SIGSTOP');
    for (const pid of findRunProcesses(leader, token)) signal(pid, 'SIGSTOP');
    for (const pid of findRunProcesses(leader, token)) signal(pid, 'SIGKILL');
    signal(-leader, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 10 * (round + 1)));
  }
  signal(-leader, 'SIGKILL');
}
