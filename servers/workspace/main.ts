import { runServer } from '../lib/server-main';
import { buildWorkspaceServer } from './server';

void runServer('workspace', buildWorkspaceServer);
