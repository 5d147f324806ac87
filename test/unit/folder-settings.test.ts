// The rules of what a folder's settings may set (core/settings/folder-settings.ts), value by value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, effortRank, numberRank } from '../../src/core/settings/folder-settings';

const layers = <T>(person: T | undefined, folder: Array<T | undefined>, fallback: T) => ({ person, folder, fallback });

test("'person' settings ignore every folder value, and say so", () => {
  const d = decide('mcpAgent.apiBaseUrl', 'person', layers('https://mine', ['https://theirs.example'], ''), true, () => 0);
  assert.equal(d.value, 'https://mine');
  assert.match(d.ignored ?? '', /theirs\.example.*only your user settings/);
  assert.equal(decide('mcpAgent.apiBaseUrl', 'person', layers(undefined, ['https://theirs.example'], ''), true, () => 0).value, '');
});

test("'lower' settings take a folder's lower value, never a higher one", () => {
  assert.deepEqual(decide('m', 'lower', layers(4000, [2000], 8192), true, numberRank), { value: 2000 });
  assert.equal(decide('m', 'lower', layers(undefined, [9000], 8192), true, numberRank).value, 8192, 'above the default');
  assert.match(decide('m', 'lower', layers(4000, [9000], 8192), true, numberRank).ignored ?? '', /never raise/);
  assert.equal(decide('m', 'lower', layers(4000, [3000, 1000], 8192), true, numberRank).value, 1000, 'the lowest of workspace and folder');
});

test('an untrusted folder sets nothing, not even a lower value', () => {
  const d = decide('m', 'lower', layers(4000, [2000], 8192), false, numberRank);
  assert.equal(d.value, 4000);
  assert.match(d.ignored ?? '', /Restricted Mode/);
});

test("effort: '' counts as the API's default 'high'; a folder may go lower only", () => {
  assert.equal(decide('e', 'lower', layers('', ['low'], ''), true, effortRank).value, 'low');
  assert.equal(decide('e', 'lower', layers('', ['max'], ''), true, effortRank).value, '');
  assert.equal(decide('e', 'lower', layers('medium', ['high'], ''), true, effortRank).value, 'medium');
});
