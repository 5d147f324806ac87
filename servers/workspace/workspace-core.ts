import { Sandbox } from '../../src/node/sandbox';
import type { OsSandbox } from './os-sandbox';
import { removeLeftoverRuns } from './run-dirs';
import { SqliteStore } from './sqlite-store';

/**
 * What every session of one workspace server process shares, made once: over HTTP each client gets
 * its own MCP server, but one store (so sessions see each other's writes and cost no thread of their
 * own) and one probe of the OS sandbox (a process start, too slow to pay per connection).
 */
export interface WorkspaceCore {
  sandbox: Sandbox;
  store: SqliteStore;
  os: OsSandbox;
  dispose: () => Promise<void>;
}

/** `os`: the OS sandbox's probe, started with the process (OsSandbox.probe). */
export async function createWorkspaceCore(workspace: string, os: Promise<OsSandbox>): Promise<WorkspaceCore> {
  const sandbox = new Sandbox(workspace);
  removeLeftoverRuns();
  const store = new SqliteStore(sandbox.root);
  return { sandbox, store, os: await os, dispose: async () => store.dispose() };
}
