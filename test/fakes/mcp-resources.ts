/**
 * A server for the editor side of resources and completions (one process, stdio):
 *   pulse://counter      text/plain "version N"; once subscribed it changes and notifies `--pulses` times
 *                        (default 100), every 10 ms, ending at "version <pulses>"
 *   pulse://notes.md     text/markdown
 *   pulse://pixel        a 1×1 PNG (blob)
 *   pulse://archive      a gzip blob, declared application/octet-stream
 *   pulse://city/{country}/{city}   template; both variables complete, the city from the country given
 *   prompt trip {country (required), city}   both complete, the city from the country given
 * Declares resources.subscribe and completions. With `--state=<file>` it writes the URIs subscribed to now
 * there (JSON) on every change, so a test that cannot call its tools can still see them.
 */
import { writeFileSync } from 'node:fs';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const flag = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const pulses = Number(flag('pulses') ?? 100);
const stateFile = flag('state');

const CITIES: Record<string, string[]> = {
  France: ['Paris', 'Lyon', 'Marseille'],
  Japan: ['Tokyo', 'Osaka', 'Kyoto'],
  Peru: ['Lima', 'Cusco'],
};
const countries = (value: string): string[] => Object.keys(CITIES).filter((c) => c.toLowerCase().startsWith(value.toLowerCase()));
const cities = (value: string, country: string | undefined): string[] =>
  (country ? (CITIES[country] ?? []) : Object.values(CITIES).flat()).filter((c) => c.toLowerCase().startsWith(value.toLowerCase()));

const server = new McpServer({ name: 'resources', version: '1.0.0' }, { capabilities: { resources: { subscribe: true }, completions: {} } });
const subscribed = new Set<string>();
let version = 0;
const saveState = (): void => {
  if (stateFile) writeFileSync(stateFile, JSON.stringify([...subscribed]));
};
saveState();

// The smallest valid PNG: one transparent pixel.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const GZIP = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]).toString(
  'base64',
);

server.registerResource('counter', 'pulse://counter', { mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: `version ${version}` }],
}));
server.registerResource('notes', 'pulse://notes.md', { mimeType: 'text/markdown' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Notes\n\n- one\n- two\n' }],
}));
server.registerResource('pixel', 'pulse://pixel', { mimeType: 'image/png' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'image/png', blob: PIXEL }],
}));
server.registerResource('archive', 'pulse://archive', { mimeType: 'application/octet-stream' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'application/octet-stream', blob: GZIP }],
}));
server.registerResource(
  'city',
  new ResourceTemplate('pulse://city/{country}/{city}', {
    list: undefined,
    complete: { country: (value) => countries(value), city: (value, context) => cities(value, context?.arguments?.country) },
  }),
  { mimeType: 'text/plain' },
  async (uri, { country, city }) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${String(city)} is in ${String(country)}` }] }),
);
server.registerPrompt(
  'trip',
  {
    description: 'Plan a trip',
    argsSchema: {
      country: completable(z.string(), (value) => countries(value)),
      city: completable(z.string().optional(), (value, context) => cities(value ?? '', context?.arguments?.country)),
    },
  },
  ({ country, city }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Plan a trip to ${city ?? 'somewhere'} in ${country}` } }] }),
);

async function pulse(uri: string): Promise<void> {
  for (let i = 0; i < pulses && subscribed.has(uri); i++) {
    await new Promise((r) => setTimeout(r, 10));
    version++;
    await server.server.sendResourceUpdated({ uri });
  }
}

server.server.setRequestHandler(SubscribeRequestSchema, async (r) => {
  subscribed.add(r.params.uri);
  saveState();
  if (r.params.uri === 'pulse://counter') void pulse(r.params.uri);
  return {};
});
server.server.setRequestHandler(UnsubscribeRequestSchema, async (r) => {
  subscribed.delete(r.params.uri);
  saveState();
  return {};
});

void server.connect(new StdioServerTransport());
