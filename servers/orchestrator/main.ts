// Loaded through import() like the workspace server's entry: esbuild then wraps every module in a lazy
// initialiser, so the modules the orchestrator imports on first use (the agent loop, the Anthropic SDK,
// the YAML parser) share one consistent initialisation order with the rest.
void Promise.all([import('../lib/server-main'), import('./orchestrator'), import('./server')]).then(([main, core, server]) => {
  // One core per process, made with the first server: over HTTP every session's server shares it.
  let shared: ReturnType<typeof core.createOrchestratorCore> | undefined;
  return main.runServer('orchestrator', (workspace) => server.buildOrchestratorServer((shared ??= core.createOrchestratorCore(workspace))), {
    dispose: async () => shared?.dispose(),
  });
});
