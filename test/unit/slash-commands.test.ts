// The slash commands both front ends share (src/core/chat): parsing, the listings, the checks before a
// front end acts, and what the composer's / list offers. The hub is plain data: these functions only read it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSlash, runSlash, type SlashActions, type SlashHub } from '../../src/core/chat/slash-commands';
import { completeSlash } from '../../src/core/chat/slash-completions';
import type { ServerStatus } from '../../src/core/mcp/types';

const notes: ServerStatus = {
  name: 'notes',
  state: 'ready',
  tools: [{ name: 'search', description: 'Search the notes\nmore', inputSchema: { type: 'object' } }],
  resources: [
    { uri: 'notes://readme', name: 'readme', title: 'Read me' },
    { uri: 'notes://pixel.png', name: 'pixel' },
  ],
  resourceTemplates: [{ uriTemplate: 'notes://files/{name}', name: 'file' }],
  prompts: [
    { name: 'review', title: 'Review a file', arguments: [{ name: 'file', required: true }, { name: 'tone' }] },
    { name: 'plain', description: 'No arguments' },
  ],
};
const down: ServerStatus = {
  name: 'down',
  state: 'error',
  error: 'exited',
  tools: [],
  resources: [{ uri: 'down://x', name: 'x' }],
  resourceTemplates: [],
  prompts: [{ name: 'hidden' }],
};

const hub: SlashHub = {
  statuses: () => [notes, down],
  status: (name) => [notes, down].find((s) => s.name === name),
};
const notesTools = { host: { tools: () => notes.tools.map((tool) => ({ qualifiedName: `notes__${tool.name}`, server: 'notes', tool })) } };

/** Front-end actions that record what they were asked to do. */
function recorder(): SlashActions & { said: string[]; did: string[] } {
  const said: string[] = [];
  const did: string[] = [];
  return {
    hub,
    tools: notesTools,
    said,
    did,
    say: (lines) => void said.push(...lines),
    model: async (name) => void did.push(`model ${name ?? '(picker)'}`),
    clear: async () => void did.push('clear'),
    resource: async (server, uri) => void did.push(`resource ${server} ${uri}`),
    prompt: async (server, name, args, missing) => void did.push(`prompt ${server}/${name} ${JSON.stringify(args)} missing=${missing.join(',')}`),
  };
}

describe('slash commands (shared by the CLI and the chat)', () => {
  test('a line is text, a command, or // text', () => {
    assert.deepEqual(parseSlash('hello /tools'), { kind: 'text', text: 'hello /tools' });
    assert.deepEqual(parseSlash('  //etc/passwd is a path'), { kind: 'text', text: '/etc/passwd is a path' });
    assert.deepEqual(parseSlash('/prompt notes/review file="a b.md" tone=dry'), {
      kind: 'command',
      name: '/prompt',
      args: ['notes/review', 'file=a b.md', 'tone=dry'],
    });
  });

  test('no command comes back as text for the model; // does, with one / removed', async () => {
    for (const line of ['/help', '/tools', '/resources', '/prompts', '/clear', '/model', '/nonsense', '/resource', '/prompt']) {
      assert.equal(await runSlash(line, recorder()), undefined, line);
    }
    assert.equal(await runSlash('//x', recorder()), '/x');
    assert.equal(await runSlash('plain text', recorder()), 'plain text');
  });

  test('the listings name ready servers only', async () => {
    const r = recorder();
    await runSlash('/tools', r);
    await runSlash('/resources', r);
    await runSlash('/prompts', r);
    assert.deepEqual(r.said, [
      '1 tool from 1 server, all loaded',
      'notes:',
      '  notes__search  [loaded]  Search the notes',
      'notes notes://readme  Read me',
      'notes notes://pixel.png  pixel',
      'notes notes://files/{name}  (template) file',
      '/prompt notes/review file=… [tone=…]',
      '/prompt notes/plain   No arguments',
    ]);
  });

  test('/tools says what is loaded, found by search, turned off or for its app only, as the Tools view does', async () => {
    const bulk = (i: number) => ({
      name: `tool_${i}`,
      description: `Tool number ${i}: ${'a long description of what it does. '.repeat(3)}`,
      inputSchema: { type: 'object' as const },
    });
    const many: ServerStatus = {
      ...notes,
      name: 'many',
      prompts: [],
      resources: [],
      resourceTemplates: [],
      tools: [...Array.from({ length: 300 }, (_, i) => bulk(i)), { name: 'view', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } }],
    };
    const readFile: ServerStatus = { ...many, name: 'workspace', tools: [{ name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object' } }] };
    const statuses = [readFile, many];
    const choices = { isOff: (s: string, t?: string) => t === 'tool_2', isPinned: (s: string, t: string) => t === 'tool_1' };
    const all = statuses.flatMap((st) =>
      st.tools.filter((t) => !t._meta && t.name !== 'tool_2').map((tool) => ({ qualifiedName: `${st.name}__${tool.name}`, server: st.name, tool })),
    );
    const r = recorder();
    await runSlash('/tools', {
      ...r,
      hub: { statuses: () => statuses, status: (n) => statuses.find((st) => st.name === n) },
      tools: { host: { tools: () => all, pinned: (t) => choices.isPinned(t.server, t.tool.name) }, choices },
    });
    assert.equal(r.said[0], '300 tools from 2 servers: 2 loaded, the rest found by search; 1 turned off');
    assert.ok(r.said.includes('  workspace__read_file  [loaded]  Read a file.'), r.said.slice(0, 5).join('\n'));
    assert.match(
      r.said.find((l) => l.includes('many__tool_1 '))!,
      /\[loaded, pinned\]/,
    );
    assert.match(
      r.said.find((l) => l.includes('many__tool_0 '))!,
      /\[found by search\]/,
    );
    assert.match(
      r.said.find((l) => l.includes('many__tool_2 '))!,
      /\[turned off\]/,
    );
    assert.equal(r.said.filter((l) => l.startsWith('  many__')).length, 100, 'a long list is cut');
    assert.equal(r.said.at(-1), '  … and 201 more (the Tools view lists them all)');
  });

  test('unknown commands say so and /help lists every command', async () => {
    const r = recorder();
    await runSlash('/nonsense', r);
    assert.match(r.said[0]!, /^unknown command \/nonsense; \/help lists the commands/);
    await runSlash('/help', r);
    for (const c of ['/tools', '/resources', '/prompts', '/resource <server> <uri>', '/prompt <server>/<name>', '/clear', '/model', '/help']) {
      assert.ok(
        r.said.some((l) => l.startsWith(c)),
        c,
      );
    }
  });

  test('/prompt checks the prompt and names the required arguments missing; the front end does the rest', async () => {
    const r = recorder();
    await runSlash('/prompt notes/review', r);
    await runSlash('/prompt notes/review file="a b.md"', r);
    await runSlash('/prompt notes/nope', r);
    await runSlash('/prompt down/hidden', r);
    await runSlash('/prompt notes/review oops', r);
    assert.deepEqual(r.did, ['prompt notes/review {} missing=file', 'prompt notes/review {"file":"a b.md"} missing=']);
    assert.deepEqual(r.said, [
      'server notes has no prompt nope; /prompts lists them',
      'server down has no prompt hidden; /prompts lists them',
      '"oops" is not name=value',
    ]);
  });

  test('/resource needs a ready server and a URI; a URI alone finds its server', async () => {
    const r = recorder();
    await runSlash('/resource notes notes://readme', r);
    await runSlash('/resource down down://x', r);
    await runSlash('/resource nobody x://y', r);
    await runSlash('/resource notes', r);
    await runSlash('/resource a b c', r);
    await runSlash('/resource notes://readme', r);
    await runSlash('/resource notes://files/todo.md', r);
    assert.deepEqual(r.did, ['resource notes notes://readme', 'resource notes notes://readme', 'resource notes notes://files/todo.md']);
    assert.deepEqual(r.said, [
      'server down is not ready (error)',
      'there is no server nobody; /resources lists them',
      'no ready server lists notes (or a template it fits); /resources lists them, or name the server: /resource <server> <uri>',
      'usage: /resource [<server>] <uri>',
    ]);
  });

  test("the seed's names /use-prompt and /read-resource do what /prompt and /resource do; a prompt's name alone finds its server", async () => {
    const r = recorder();
    await runSlash('/use-prompt notes/review file=a.md', r);
    await runSlash('/use-prompt review file=b.md', r);
    await runSlash('/prompt plain', r);
    await runSlash('/use-prompt hidden', r);
    await runSlash('/read-resource notes://pixel.png', r);
    await runSlash('/read-resource notes notes://readme', r);
    assert.deepEqual(r.did, [
      'prompt notes/review {"file":"a.md"} missing=',
      'prompt notes/review {"file":"b.md"} missing=',
      'prompt notes/plain {} missing=',
      'resource notes notes://pixel.png',
      'resource notes notes://readme',
    ]);
    assert.deepEqual(r.said, ['no single ready server has a prompt hidden; /prompts lists them']);
    await runSlash('/help', r);
    assert.ok(r.said.includes('/use-prompt works as /prompt, /read-resource works as /resource (the names the research seed uses).'), r.said.join('\n'));
  });

  test('a failing front-end action is said, not thrown', async () => {
    const r = { ...recorder(), clear: async () => Promise.reject(new Error('disk full')) };
    const said: string[] = [];
    r.say = (lines) => void said.push(...lines);
    assert.equal(await runSlash('/clear', r), undefined);
    assert.deepEqual(said, ['/clear failed: disk full']);
  });
});

describe("the composer's / list", () => {
  const labels = (text: string): string[] => completeSlash(text, hub).map((i) => i.label);

  test('commands by prefix; those without arguments run on Enter, the others go on to their arguments', () => {
    assert.deepEqual(labels('/pro'), ['/prompts', '/prompt <server>/<name> [k=v ...]']);
    const [prompts, prompt] = completeSlash('/pro', hub);
    assert.deepEqual([prompts!.insert, prompts!.runs], ['/prompts', true]);
    assert.deepEqual([prompt!.insert, prompt!.runs], ['/prompt ', false]);
    assert.equal(completeSlash('/', hub).length, 8);
    assert.deepEqual(completeSlash('//x', hub), []);
    assert.deepEqual(completeSlash('hello', hub), []);
  });

  test('after /prompt: server/name of ready servers, with their arguments', () => {
    assert.deepEqual(labels('/prompt '), ['notes/review file=… [tone=…]', 'notes/plain']);
    assert.deepEqual(
      completeSlash('/prompt rev', hub).map((i) => i.insert),
      ['/prompt notes/review '],
    );
    assert.deepEqual(labels('/prompt notes/review x'), []);
  });

  test('after /resource: servers with resources, then their URIs and templates', () => {
    assert.deepEqual(labels('/resource '), ['notes']);
    assert.equal(completeSlash('/resource n', hub)[0]!.insert, '/resource notes ');
    assert.deepEqual(labels('/resource notes '), ['notes://readme', 'notes://pixel.png', 'notes://files/{name}']);
    const [readme] = completeSlash('/resource notes notes://r', hub);
    assert.deepEqual([readme!.insert, readme!.runs], ['/resource notes notes://readme', true]);
    assert.equal(completeSlash('/resource notes notes://files', hub)[0]!.insert, '/resource notes notes://files/');
    assert.deepEqual(labels('/resource down '), []);
  });
});
