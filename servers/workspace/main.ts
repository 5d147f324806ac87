import { isMainThread } from 'node:worker_threads';

// This bundle is also the entry point of the server's worker threads (task-worker.ts): each side
// loads only the modules it needs.
if (isMainThread) {
  void Promise.all([import('../lib/server-main'), import('./workspace-core'), import('./server')]).then(([main, core, server]) => {
    // One core per process, made with the first server: over HTTP every session's server shares it.
    let shared: ReturnType<typeof core.createWorkspaceCore> | undefined;
    return main.runServer('workspace', (workspace) => server.buildWorkspaceServer((shared ??= core.createWorkspaceCore(workspace))), {
      dispose: async () => shared?.dispose(),
    });
  });
} else {
  void import('./worker-main').then((worker) => worker.serveWorker());
}
