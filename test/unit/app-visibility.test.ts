// MCP Apps: what belongs to an app's view never reaches the model. A tool whose `_meta.ui.visibility`
// leaves out "model" is not the model's, and a view's HTML (a ui:// resource, text/html;profile=mcp-app)
// is never fed to it as text, whichever way it would come: a tool result, read_mcp_resource, an
// attached resource or a prompt's embedded resource.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadResourceResult, Tool } from '@modelcontextprotocol/client';
import { isAppView, visibleToModel } from '../../src/core/mcp/requests/app-visibility';
import { convertToolResult } from '../../src/core/agent/tool-results';
import { READ_RESOURCE, withResourceTools } from '../../src/core/agent/resource-tools';
import { readResourceAttachments, resourceRef } from '../../src/core/chat/attachments';
import { promptConversation } from '../../src/core/chat/prompt-messages';
import type { ServerStatus } from '../../src/core/mcp/types';

const VIEW_HTML = '<!doctype html><html><script>window.secretViewCode = 1</script></html>';
const view = { uri: 'ui://pdf-viewer/mcp-app.html', mimeType: 'text/html;profile=mcp-app', text: VIEW_HTML };
const tool = (meta?: Record<string, unknown>): Tool => ({ name: 't', inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) });

describe('app-only tools and app views', () => {
  test("a tool is the model's unless its visibility leaves the model out", () => {
    assert.equal(visibleToModel(tool()), true);
    assert.equal(visibleToModel(tool({ ui: { resourceUri: 'ui://x' } })), true);
    assert.equal(visibleToModel(tool({ ui: { visibility: ['model', 'app'] } })), true);
    assert.equal(visibleToModel(tool({ ui: { visibility: ['app'] } })), false);
    assert.equal(visibleToModel(tool({ ui: { visibility: [] } })), false);
  });

  test('a view is known by its ui:// scheme or its MIME type', () => {
    assert.ok(isAppView({ uri: 'ui://a/b.html' }));
    assert.ok(isAppView({ uri: 'https://x/app', mimeType: 'text/html; profile=mcp-app' }));
    assert.ok(!isAppView({ uri: 'file:///a.html', mimeType: 'text/html' }));
  });

  test('a tool result that embeds a view gives the model a note, not the HTML', () => {
    const { forModel } = convertToolResult({
      content: [
        { type: 'text', text: 'Opened.' },
        { type: 'resource', resource: view },
      ],
    });
    const text = JSON.stringify(forModel);
    assert.doesNotMatch(text, /secretViewCode/);
    assert.match(text, /ui:\/\/pdf-viewer\/mcp-app\.html is the view of an MCP App/);
  });

  test('read_mcp_resource of a view returns the note', async () => {
    const status: ServerStatus = {
      name: 'pdf',
      state: 'ready',
      tools: [],
      resources: [{ uri: view.uri, name: view.uri, mimeType: view.mimeType }],
      resourceTemplates: [],
      prompts: [],
    };
    const host = withResourceTools({
      tools: () => [],
      statuses: () => [status],
      callTool: async () => ({ content: [] }),
      readResource: async (): Promise<ReadResourceResult> => ({ contents: [view] }),
    });
    assert.equal(host.findTool?.(READ_RESOURCE)?.qualifiedName, READ_RESOURCE);
    const result = await host.callTool(READ_RESOURCE, { server: 'pdf', uri: view.uri });
    assert.doesNotMatch(JSON.stringify(result), /secretViewCode/);
    assert.match(JSON.stringify(result), /view of an MCP App/);
  });

  test('an attached view and a prompt that embeds one carry the note', async () => {
    const attached = await readResourceAttachments(async () => ({ contents: [view] }), [resourceRef('pdf', view.uri)]);
    assert.doesNotMatch(attached.blocks.join('\n'), /secretViewCode/);
    assert.match(attached.blocks.join('\n'), /view of an MCP App/);
    const prompt = promptConversation({ messages: [{ role: 'user', content: { type: 'resource', resource: view } }] }, 'pdf/show');
    assert.doesNotMatch(JSON.stringify(prompt.messages), /secretViewCode/);
  });
});
