// The browser of every browser test (webview harness, real VS Code rig) and of the installer: the one place
// that reads MCP_AGENT_CHROMIUM. Types: chromium.d.mts.
import { accessSync, constants } from 'node:fs';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, driven by playwright-core; never a browser download (`playwright install`). */
export function chromiumPath() {
  return process.env.MCP_AGENT_CHROMIUM || DEFAULT_CHROMIUM;
}

/**
 * Headless flags for this machine's closed network: without the background-networking ones Chromium keeps
 * trying to reach Google's hosts and its connections are refused, many at a time.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser cannot run, in words that name the fix; undefined when it is there. */
export function chromiumProblem(path = chromiumPath()) {
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    const which = process.env.MCP_AGENT_CHROMIUM ? `MCP_AGENT_CHROMIUM=${path}` : `${path} (the default; set MCP_AGENT_CHROMIUM to use another)`;
    return (
      `The browser tests need Chromium, and there is none at ${which}. ` +
      "`npm test` installs Debian's chromium before the first browser test; to install it by hand run " +
      '`node scripts/ensure-vscode.mjs` (or `apt-get install -y chromium` as root), ' +
      'or point MCP_AGENT_CHROMIUM at a Chromium or Chrome binary.'
    );
  }
}

/** The browser's path, or an Error at once (before any server or profile is made) when it is missing. */
export function requireChromium() {
  const path = chromiumPath();
  const problem = chromiumProblem(path);
  if (problem) throw new Error(problem);
  return path;
}
