// The mocha runner VS Code's extension host loads (extensionTestsPath = dist/test/suite/index.js).
// Every test file is bundled into this one file; add yours to TEST_MODULES.
import { format } from 'node:util';
import Mocha from 'mocha';

/** Each entry loads one test file; they run after mocha has put describe/it/suite/test on globalThis. */
/* eslint-disable @typescript-eslint/no-require-imports -- loaded late on purpose: an import would run before mocha's globals exist */
const TEST_MODULES: Array<() => unknown> = [
  () => require('./activation.test'),
  () => require('./servers.test'),
  () => require('./sample-db.test'),
  () => require('./own-servers.test'),
  () => require('./resources.test'),
  () => require('./editor-mcp.test'),
];

export function run(): Promise<void> {
  // The workbench forwards each console call as its raw arguments; give it whole lines instead.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(format(...args));
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.MCP_AGENT_SUITE_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.emit('pre-require', globalThis, 'dist/test/suite/index.js', mocha);
  for (const load of TEST_MODULES) load();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
