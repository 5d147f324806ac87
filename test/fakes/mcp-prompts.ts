/**
 * A server whose prompts and resources carry what server-everything's do not (one process, stdio):
 *   prompt `review {file}`: user text, assistant text, user text with an embedded resource, user image, a resource link
 *   prompt `assistant_last`: a user message then the assistant's (the conversation must still end with the person)
 *   resources: notes://readme (text), notes://pixel.png (a PNG), notes://blob.bin (octet-stream)
 *   template notes://files/{name}
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

/** A 1x1 red PNG. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.registerResource('readme', 'notes://readme', { title: 'Read me', mimeType: 'text/markdown' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Notes\nTHE-README-TEXT' }],
}));
server.registerResource('pixel', 'notes://pixel.png', { title: 'Pixel', mimeType: 'image/png' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'image/png', blob: PIXEL_PNG }],
}));
server.registerResource('blob', 'notes://blob.bin', { mimeType: 'application/octet-stream' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 3]).toString('base64') }],
}));
server.registerResource('file', new ResourceTemplate('notes://files/{name}', { list: undefined }), { title: 'A note file' }, async (uri, { name }) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: `FILE ${String(name)}` }],
}));

server.registerPrompt('review', { title: 'Review a file', argsSchema: { file: z.string() } }, ({ file }) => ({
  messages: [
    { role: 'user', content: { type: 'text', text: `Review ${file}.` } },
    { role: 'assistant', content: { type: 'text', text: 'ASSISTANT-TURN: which parts?' } },
    { role: 'user', content: { type: 'text', text: 'All of it, with this context:' } },
    { role: 'user', content: { type: 'resource', resource: { uri: `notes://files/${file}`, mimeType: 'text/plain', text: `EMBEDDED-${file}` } } },
    { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PIXEL_PNG } },
    { role: 'user', content: { type: 'resource_link', uri: 'notes://readme', name: 'readme' } },
  ],
}));
server.registerPrompt('assistant_last', { title: 'Ends with the assistant' }, () => ({
  messages: [
    { role: 'user', content: { type: 'text', text: 'Start a story.' } },
    { role: 'assistant', content: { type: 'text', text: 'Once upon a time' } },
  ],
}));
server.registerPrompt('summarize', { title: 'Summarize a topic', argsSchema: { topic: z.string() } }, ({ topic }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Summarize what is known about ${topic}, with sources.` } }],
}));

void server.connect(new StdioServerTransport());
