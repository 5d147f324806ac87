import { runServer } from '../lib/server-main.js';
import { buildWebServer } from './server.js';

void runServer('web', () => buildWebServer());
