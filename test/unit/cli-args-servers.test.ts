import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseArgs, USAGE } from '../../src/cli/args';

describe("CLI arguments for the person's own MCP servers", () => {
  test('--mcp-config is repeatable and resolved; --trust-workspace-servers is its own flag, not implied by --yes', () => {
    const a = parseArgs(['--workspace', 'ws', '--mcp-config', 'a.json', '--mcp-config=/etc/b.json', '--yes', 'hi'], {});
    assert.deepEqual(a.mcpConfigs, [resolve('a.json'), '/etc/b.json']);
    assert.equal(a.trustWorkspaceServers, false);
    assert.equal(a.yes, true);
    assert.equal(parseArgs(['--trust-workspace-servers'], {}).trustWorkspaceServers, true);
    assert.deepEqual(parseArgs([], {}).mcpConfigs, []);
  });

  test('a missing value or a value given to the flag are refused', () => {
    assert.throws(() => parseArgs(['--mcp-config'], {}), /^Error: --mcp-config needs a value$/);
    assert.throws(() => parseArgs(['--mcp-config', '--yes'], {}), /^Error: --mcp-config needs a value$/);
    assert.throws(() => parseArgs(['--trust-workspace-servers=yes'], {}), /^Error: --trust-workspace-servers takes no value$/);
  });

  test('the usage names both', () => {
    assert.match(USAGE, /\[--mcp-config <file>\]\.\.\. \[--trust-workspace-servers\]/);
    assert.match(USAGE, /--yes does not trust them/);
  });
});
