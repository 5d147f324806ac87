import { runServer } from '../lib/server-main.js';
import { buildResearchServer } from './server.js';

void runServer('research', (workspace) => buildResearchServer(workspace));
