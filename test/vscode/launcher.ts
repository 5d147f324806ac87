// A stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }):
// takes Electron-style arguments, runs the extension tests in code-server's real extension host through the
// workbench URL payload, prints the suite's output and exits with its code. out/test/vscode/launcher is the
// executable wrapper test-vscode.mjs writes around this bundle.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startCodeServer, workbenchUrl, type CodeServer } from '../../scripts/code-server.mjs';
import { requireChromium } from '../../scripts/chromium.mjs';
import { logsDir } from './artifacts';
import { openBrowser, type BrowserPage } from './browser';

interface LaunchArgs {
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
  folder?: string;
}

function parseArgs(argv: string[]): LaunchArgs {
  const out: LaunchArgs = {};
  for (const arg of argv) {
    const [, key, value = ''] = /^--([^=]+)=(.*)$/.exec(arg) ?? [];
    if (key === 'extensionDevelopmentPath') out.extensionDevelopmentPath ??= resolve(value);
    else if (key === 'extensionTestsPath') out.extensionTestsPath = resolve(value);
    else if (!arg.startsWith('-')) out.folder = resolve(arg);
    // Every other flag (--no-sandbox, --user-data-dir=..., --disable-extensions) means nothing to code-server.
  }
  return out;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args.extensionDevelopmentPath || !args.extensionTestsPath) {
    console.error('usage: launcher --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [folder]');
    return 2;
  }
  requireChromium(); // before code-server starts: a missing browser fails in a second, naming the fix
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-agent-exthost-'));
  const folder = args.folder ?? join(scratch, 'workspace');
  mkdirSync(folder, { recursive: true });
  // Settings for the suite's VS Code, e.g. {"mcpAgent.apiBaseUrl": "http://127.0.0.1:PORT"} for a fake API.
  const settings = JSON.parse(process.env.MCP_AGENT_SUITE_SETTINGS ?? '{}') as Record<string, unknown>;
  const timeoutMs = Number(process.env.MCP_AGENT_SUITE_TIMEOUT_MS ?? 600_000);
  let server: CodeServer | undefined;
  let browser: BrowserPage | undefined;
  try {
    server = await startCodeServer({
      root: join(scratch, 'vscode'),
      logFile: join(logsDir(), 'exthost-suite--code-server.log'),
      settings,
      devPayload: true,
    });
    browser = await openBrowser({ consoleLog: join(logsDir(), 'exthost-suite--console.log') });
    let finish: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((done) => (finish = done));
    const timer = setTimeout(() => {
      console.error(`[launcher] the suite did not finish within ${timeoutMs} ms`);
      finish(1);
    }, timeoutMs);
    void exitCode.finally(() => clearTimeout(timer));
    // The workbench calls these when it runs in test mode: the suite's output, then its exit code.
    await browser.page.exposeFunction('codeAutomationExit', (code: unknown) => finish(Number(code) || 0));
    await browser.page.exposeFunction('codeAutomationLog', (type: string, line: unknown) => {
      const text = `${String(line)}\n`;
      if (type === 'error' || type === 'warn') process.stderr.write(text);
      else process.stdout.write(text);
    });
    const url = workbenchUrl(server.url, folder, {
      extensionDevelopmentPath: args.extensionDevelopmentPath,
      extensionTestsPath: args.extensionTestsPath,
    });
    console.log(`[launcher] ${server.url} running ${args.extensionTestsPath} in ${folder}`);
    await browser.page.goto(url);
    // In test mode code-server shuts down once the extension host exits, often a moment before the page
    // reports the exit code; only a server gone for good with no code reported is a crash.
    const crashed = server.exited.then(async (code) => {
      const grace = new Promise<number>((r) => setTimeout(() => r(-1), 15_000).unref());
      const reported = await Promise.race([exitCode, grace]);
      if (reported !== -1) return reported;
      console.error(`[launcher] code-server exited (${code}) and the suite reported no result`);
      return 1;
    });
    return await Promise.race([exitCode, crashed]);
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('[launcher]', err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
