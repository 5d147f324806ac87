// The v2 MCP client's Node shim with its Ajv validator loaded on first use (src/common/mcp-client-shims.ts): the same
// answers as the client's own validator, in each JSON Schema dialect it reads, and a bad schema fails when asked for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { CORS_IS_POSSIBLE, DefaultJsonSchemaValidator } from '../../src/common/mcp-client-shims';

const properties = { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 0 } };
const SCHEMAS: Array<[string, JsonSchemaType]> = [
  ['no $schema (2020-12)', { type: 'object', properties, required: ['email'] } as JsonSchemaType],
  ['draft-07', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, required: ['email'] } as JsonSchemaType],
  ['2019-09', { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties, required: ['email'] } as JsonSchemaType],
];

describe("the v2 client's shim", () => {
  test('answers as the client’s own validator does, in every dialect, formats included', () => {
    for (const [dialect, schema] of SCHEMAS) {
      const ours = new DefaultJsonSchemaValidator().getValidator(schema);
      const theirs = new AjvJsonSchemaValidator().getValidator(schema);
      for (const input of [{ email: 'a@example.com', count: 2 }, { email: 'not an address' }, { count: -1 }, 'text']) {
        assert.deepEqual(ours(input), theirs(input), `${dialect}: ${JSON.stringify(input)}`);
      }
      assert.equal(ours({ email: 'a@example.com' }).valid, true, dialect);
    }
  });

  test('a schema that cannot compile throws when asked for; a fetch error is never CORS in Node', () => {
    const bad = { $ref: '#/definitions/missing' } as JsonSchemaType;
    assert.throws(() => new DefaultJsonSchemaValidator().getValidator(bad));
    assert.throws(() => new AjvJsonSchemaValidator().getValidator(bad));
    assert.equal(CORS_IS_POSSIBLE, false);
  });
});
