import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelCatalog, modelDetail, pickable } from '../../src/core/agent/model-catalog';
import { DEFAULT_MODEL } from '../../src/core/agent/models';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { defaultModels, type FakeModel } from '../fakes/fake-models';
import { cli } from './helpers/cli-process';

describe('the model list from the Models API', () => {
  const api = new FakeAnthropicApi([]);
  let client: Anthropic;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(() => api.stop());

  test('every page is read; retired models are hidden, deprecated ones come last with their retirement date', async () => {
    // 130 models: more than one page of 100
    const many: FakeModel[] = [
      ...defaultModels(),
      ...Array.from({ length: 124 }, (_, i) => ({ ...defaultModels()[3]!, id: `claude-extra-${i}`, created_at: '2024-01-01T00:00:00Z' })),
    ];
    api.models = many;
    const catalog = new ModelCatalog(async () => client);
    const all = await catalog.list();
    assert.equal(all.length, 130);
    const shown = pickable(all);
    assert.ok(!shown.some((m) => m.id === 'claude-sonnet-4-20250514'), 'retired is hidden');
    assert.equal(shown.at(-1)?.id, 'claude-sonnet-4-5-20250929', 'deprecated last');
    assert.equal(modelDetail(shown.at(-1)!), '200k context · 64k output · deprecated: retires 2026-11-30');
    assert.equal(modelDetail(shown[0]!), '1M context · 128k output');
    api.models = defaultModels();
  });

  test('the default is the newest active Sonnet listed; an explicit choice wins; no list falls back to the built-in default', async () => {
    api.models = [...defaultModels(), { ...defaultModels()[1]!, id: 'claude-sonnet-6', display_name: 'Claude Sonnet 6', created_at: '2026-11-20T00:00:00Z' }];
    assert.equal(await new ModelCatalog(async () => client).resolve(undefined), 'claude-sonnet-6');
    assert.equal(await new ModelCatalog(async () => client).resolve('claude-opus-5-5'), 'claude-opus-5-5');
    api.models = defaultModels().map((m) => (m.line === 'sonnet' && m.lifecycle === 'active' ? { ...m, lifecycle: 'deprecated' as const } : m));
    assert.equal(await new ModelCatalog(async () => client).resolve(undefined), DEFAULT_MODEL, 'a deprecated Sonnet is never the default');
    const broken = new ModelCatalog(async () => new Anthropic({ apiKey: 'sk', baseURL: 'http://127.0.0.1:9', maxRetries: 0 }));
    assert.equal(await broken.resolve(undefined), DEFAULT_MODEL);
    assert.ok(broken.lastError, 'the picker can say why the list is empty');
    api.models = defaultModels();
  });

  test("the CLI runs on the newest Sonnet and caps replies at the model's output limit", async () => {
    const ws = mkdtempSync(join(tmpdir(), 'models-ws-'));
    try {
      api.models = [...defaultModels(), { ...defaultModels()[1]!, id: 'claude-sonnet-6', created_at: '2026-11-20T00:00:00Z', max_tokens: 4000 }];
      api.setScript([{ text: 'hi' }]);
      const r = await cli(['--workspace', ws, 'hello'], { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url });
      assert.equal(r.code, 0, r.stderr);
      const sent = api.requests.at(-1)!.body;
      assert.equal(sent.model, 'claude-sonnet-6');
      assert.equal(sent.max_tokens, 4000, 'the 8192 default is cut to what the model allows');
    } finally {
      api.models = defaultModels();
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
