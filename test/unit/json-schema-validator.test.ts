// The SDK's Ajv validator made on the first schema (src/node/json-schema-validator.ts): the same answers as the
// SDK's own, and a bad schema fails where the SDK's does (when the validator is asked for).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { LazyJsonSchemaValidator } from '../../src/node/json-schema-validator';

const schema: JsonSchemaType = {
  type: 'object',
  properties: { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 0 } },
  required: ['email'],
};

describe('LazyJsonSchemaValidator', () => {
  test('answers as the SDK validator does, formats included', () => {
    const ours = new LazyJsonSchemaValidator().getValidator(schema);
    const sdk = new AjvJsonSchemaValidator().getValidator(schema);
    for (const input of [{ email: 'a@example.com', count: 2 }, { email: 'not an address' }, { count: -1 }, 'text']) {
      assert.deepEqual(ours(input), sdk(input), JSON.stringify(input));
    }
    assert.equal(ours({ email: 'a@example.com' }).valid, true);
    assert.match(String(ours({ email: 'nope' }).errorMessage), /email/);
  });

  test('one Ajv serves every schema; a schema that cannot compile throws when asked for, as before', () => {
    const validator = new LazyJsonSchemaValidator();
    assert.equal(validator.getValidator({ type: 'string' })('x').valid, true);
    assert.equal(validator.getValidator({ type: 'number' })('x').valid, false);
    const bad = { $ref: '#/definitions/missing' } as JsonSchemaType;
    assert.throws(() => validator.getValidator(bad));
    assert.throws(() => new AjvJsonSchemaValidator().getValidator(bad));
  });
});
