// The v2 MCP client's and server package's Node shims, each with its Ajv validator loaded on first use
// (src/node/mcp-client-shims.ts, servers/lib/mcp-server-shims.ts): the same answers as the package's own validator,
// in each JSON Schema dialect it reads, and a bad schema fails when asked for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator as ClientAjv } from '@modelcontextprotocol/client/validators/ajv';
import { AjvJsonSchemaValidator as ServerAjv } from '@modelcontextprotocol/server/validators/ajv';
import * as clientShim from '../../src/node/mcp-client-shims';
import * as serverShim from '../../servers/lib/mcp-server-shims';

const properties = { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 0 } };
const SCHEMAS: Array<[string, JsonSchemaType]> = [
  ['no $schema (2020-12)', { type: 'object', properties, required: ['email'] } as JsonSchemaType],
  ['draft-07', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, required: ['email'] } as JsonSchemaType],
  ['2019-09', { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties, required: ['email'] } as JsonSchemaType],
];

const SHIMS: Array<[string, new () => jsonSchemaValidator, new () => jsonSchemaValidator]> = [
  ['the v2 client', clientShim.DefaultJsonSchemaValidator, ClientAjv],
  ['the v2 server package', serverShim.DefaultJsonSchemaValidator, ServerAjv],
];

for (const [whose, Shim, Theirs] of SHIMS) {
  describe(`${whose}'s shim`, () => {
    test('answers as the package’s own validator does, in every dialect, formats included', () => {
      for (const [dialect, schema] of SCHEMAS) {
        const ours = new Shim().getValidator(schema);
        const theirs = new Theirs().getValidator(schema);
        for (const input of [{ email: 'a@example.com', count: 2 }, { email: 'not an address' }, { count: -1 }, 'text']) {
          assert.deepEqual(ours(input), theirs(input), `${dialect}: ${JSON.stringify(input)}`);
        }
        assert.equal(ours({ email: 'a@example.com' }).valid, true, dialect);
      }
    });

    test('a schema that cannot compile throws when asked for', () => {
      const bad = { $ref: '#/definitions/missing' } as JsonSchemaType;
      assert.throws(() => new Shim().getValidator(bad));
      assert.throws(() => new Theirs().getValidator(bad));
    });
  });
}

test('the shims’ other exports: a fetch error is never CORS in Node; the server’s process is Node’s', () => {
  assert.equal(clientShim.CORS_IS_POSSIBLE, false);
  assert.equal(serverShim.process, process);
});
