import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseArgs } from '../../src/cli/args';

describe('CLI arguments', () => {
  test('the contract: --workspace <dir> [--yes] ["prompt"]', () => {
    const a = parseArgs(['--workspace', 'ws', '--yes', 'fix the bug'], {});
    assert.equal(a.workspace, resolve('ws'));
    assert.equal(a.yes, true);
    assert.equal(a.prompt, 'fix the bug');
    assert.equal(a.model, undefined, 'no model named: the newest Sonnet is picked at start');
    assert.equal(a.maxIterations, 10);
    assert.equal(a.maxTokens, 8192);
  });

  test('short and = forms, words of the prompt joined, -- ends the options', () => {
    const a = parseArgs(['-w', '/tmp/x', '-y', 'two', 'words'], {});
    assert.deepEqual([a.workspace, a.yes, a.prompt], ['/tmp/x', true, 'two words']);
    assert.equal(parseArgs(['--workspace=/tmp/y'], {}).workspace, '/tmp/y');
    assert.equal(parseArgs(['--', '--yes', 'is text'], {}).prompt, '--yes is text');
    assert.equal(parseArgs([], {}).prompt, undefined);
    assert.equal(parseArgs(['-h'], {}).help, true);
  });

  test('model: --model, else MCP_AGENT_MODEL, else the default', () => {
    assert.equal(parseArgs(['--model', 'm1'], { MCP_AGENT_MODEL: 'm2' }).model, 'm1');
    assert.equal(parseArgs([], { MCP_AGENT_MODEL: 'm2' }).model, 'm2');
    assert.equal(parseArgs([], { MCP_AGENT_MODEL: '' }).model, undefined, 'an empty MCP_AGENT_MODEL is no model name');
  });

  test('numbers are checked', () => {
    assert.equal(parseArgs(['--max-iterations', '3', '--max-tokens', '1024'], {}).maxIterations, 3);
    assert.throws(() => parseArgs(['--max-iterations', '0'], {}), /^Error: --max-iterations needs a whole number of at least 1$/);
    assert.throws(() => parseArgs(['--max-iterations', '2.5'], {}), /--max-iterations needs a whole number/);
    assert.throws(() => parseArgs(['--max-tokens', '10'], {}), /--max-tokens needs a whole number of at least 256/);
  });

  test('unknown options and missing values get short messages', () => {
    assert.throws(() => parseArgs(['--frobnicate'], {}), /^Error: unknown option --frobnicate$/);
    assert.throws(() => parseArgs(['-x'], {}), /^Error: unknown option -x$/);
    assert.throws(() => parseArgs(['--model'], {}), /^Error: --model needs a value$/);
    assert.throws(() => parseArgs(['hi', '--workspace'], {}), /^Error: --workspace needs a value$/);
    assert.throws(() => parseArgs(['--yes=no'], {}), /^Error: --yes takes no value$/);
    assert.throws(() => parseArgs(['--workspace', '--yes'], {}), /^Error: --workspace needs a value$/);
    assert.equal(parseArgs(['--workspace=-odd'], {}).workspace.endsWith('/-odd'), true, 'an inline value may start with a dash');
  });
});
