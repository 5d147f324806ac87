import { isMainThread } from 'node:worker_threads';

// The bundle is also its own HTML-conversion worker (see html-converter.ts): one file to ship,
// and each side loads only what it needs.
if (isMainThread) {
  void Promise.all([import('../lib/server-main.js'), import('./server.js')]).then(([{ runServer }, { buildWebServer }]) =>
    runServer('web', () => buildWebServer()),
  );
} else {
  void import('./html-worker.js').then(({ serveConversions }) => serveConversions());
}
