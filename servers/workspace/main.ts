import { isMainThread } from 'node:worker_threads';
import { OsSandbox } from './os-sandbox';

// This bundle is also the entry point of the server's worker threads (task-worker.ts): each side
// loads only the modules it needs.
if (isMainThread) {
  // First, before the server's modules load: the probe is a process of its own and runs meanwhile.
  const os = OsSandbox.probe();
  void Promise.all([import('../lib/server-main'), import('./workspace-core'), import('./server')]).then(([main, core, server]) => {
    // One core per process, made with the first server: over HTTP every session's server shares it.
    let shared: ReturnType<typeof core.createWorkspaceCore> | undefined;
    return main.runServer('workspace', async (workspace) => server.buildWorkspaceServer(await (shared ??= core.createWorkspaceCore(workspace, os))), {
      dispose: async () => (await shared)?.dispose(),
    });
  });
} else {
  void import('./worker-main').then((worker) => worker.serveWorker());
}
