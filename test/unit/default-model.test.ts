import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_MODEL } from '../../src/core/agent/models';
import { repoRoot } from '../support/repo-root';

/** The SDK keeps its deprecation list private (internal/data/deprecated-models.js since 1.15, a const in messages.js before), so it is read from the shipped file. */
const MESSAGES_JS = require.resolve('@anthropic-ai/sdk/resources/messages/messages.js');

function sdkFile(name: string): string {
  return readFileSync(join(dirname(MESSAGES_JS), name), 'utf8');
}

function deprecatedModels(): string[] {
  const sdkRoot = join(dirname(MESSAGES_JS), '..', '..');
  const where = [join(sdkRoot, 'internal', 'data', 'deprecated-models.js'), join(dirname(MESSAGES_JS), 'messages.js')];
  const text = where.map((f) => (existsSync(f) ? readFileSync(f, 'utf8') : '')).join('\n');
  const block = /DEPRECATED_MODELS = \{([^}]*)\}/.exec(text);
  assert.ok(block, "the SDK's DEPRECATED_MODELS list was found (its shape changed if not)");
  return [...block[1]!.matchAll(/'([^']+)'\s*:/g)].map((m) => m[1]!);
}

test("package.json's mcpAgent.model default is empty: the Models API's newest Sonnet, else DEFAULT_MODEL", () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  assert.equal(pkg.contributes.configuration.properties['mcpAgent.model']?.default, '');
});

test('the default model is one the SDK knows and does not list as deprecated', () => {
  const deprecated = deprecatedModels();
  assert.ok(deprecated.length > 0, 'the list was parsed');
  assert.ok(!deprecated.includes(DEFAULT_MODEL), `${DEFAULT_MODEL} is deprecated: ${deprecated.join(', ')}`);
  const modelType = /export type Model = ([^;]*);/.exec(sdkFile('messages.d.ts'));
  assert.ok(modelType, "the SDK's Model type was found");
  assert.ok(modelType[1]!.includes(`'${DEFAULT_MODEL}'`), `${DEFAULT_MODEL} is one of the SDK's Model names`);
});
