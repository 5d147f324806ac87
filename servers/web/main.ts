// Loaded through import() so that esbuild wraps each module in a lazy initialiser: what the tools need only
// when called (the fetch stack) loads then. The HTML conversion runs in workers of its own bundle
// (html-worker-main.ts).
void Promise.all([import('../lib/server-main.js'), import('./server.js')]).then(([{ runServer }, { buildWebServer }]) =>
  runServer('web', () => buildWebServer()),
);
