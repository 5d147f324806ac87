// Loaded through import() like the workspace server's entry: esbuild then wraps every module in a lazy
// initialiser, so the modules server.ts itself imports on first use (the agent loop, the Anthropic SDK,
// the YAML parser) share one consistent initialisation order with the rest.
void Promise.all([import('../lib/server-main'), import('./server')]).then(([main, server]) =>
  main.runServer('orchestrator', (workspace) => server.buildOrchestrator(workspace)),
);
