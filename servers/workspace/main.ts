import { isMainThread } from 'node:worker_threads';

// This bundle is also the entry point of the server's worker threads (task-worker.ts): each side
// loads only the modules it needs.
if (isMainThread) {
  void Promise.all([import('../lib/server-main'), import('./server')]).then(([main, server]) =>
    main.runServer('workspace', server.buildWorkspaceServer),
  );
} else {
  void import('./worker-main').then((worker) => worker.serveWorker());
}
