import { runServer } from '../lib/server-main.js';
import { buildOrchestrator } from './server.js';

void runServer('orchestrator', (workspace) => buildOrchestrator(workspace));
