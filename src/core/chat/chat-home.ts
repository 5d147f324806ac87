import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { agentHome } from '../../node/agent-home';

export { agentHome };

/**
 * Where a workspace's chats are kept: `<home>/chats/<folder name>-<hash of its path>/`. Outside the
 * workspace (chats are not the project's files and must not end up in its git) and the same for the
 * extension and the CLI, so `--continue` picks up a chat started in the editor.
 */
export function chatsDir(workspace: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return join(agentHome(env), 'chats', workspaceKey(workspace));
}

/**
 * Where the orchestrator keeps a workspace's sub-agent sessions: beside its chats, for the same
 * reason (a transcript holds whatever the sub-agent read, a git-ignored `.env` included).
 */
export function sessionsDir(workspace: string, home: string = agentHome()): string {
  return join(home, 'sessions', workspaceKey(workspace));
}

/**
 * Where the checkpoints of sub-agent runs started outside a chat (the Sessions view) are listed, a file per session:
 * beside the chats, whose checkpoints are listed in their own events. The snapshots themselves are in the
 * front end's shadow git (checkpoint/shadow-git.ts).
 */
export function sessionRunsDir(workspace: string, home: string = agentHome()): string {
  return join(home, 'session-runs', workspaceKey(workspace));
}

/** Where the orchestrator's general log of a workspace goes by default (CLAUDE_LOG_DIR overrides): beside its sessions, as private. */
export function logsDir(workspace: string, home: string = agentHome()): string {
  return join(home, 'logs', workspaceKey(workspace));
}

function workspaceKey(workspace: string | undefined): string {
  if (!workspace) return 'no-folder';
  let real = resolve(workspace);
  try {
    real = realpathSync.native(real);
  } catch {
    // a folder that is gone still has a key; its chats stay where they were
  }
  const name =
    basename(real)
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .slice(0, 40) || 'root';
  return `${name}-${createHash('sha256').update(real).digest('hex').slice(0, 12)}`;
}
