// Which fields of an elicitation form look like they ask for a secret (src/core/mcp/secret-fields.ts), so
// the chat card and the terminal can warn: MCP servers must not ask for sensitive information in a form.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formFromSchema } from '../../src/core/mcp/client/elicitation-form';
import { namesSecret, secretFields } from '../../src/core/mcp/client/secret-fields';

const secrets = (properties: Record<string, unknown>, message = 'Fill this in'): string[] => {
  const schema = { type: 'object', properties };
  return secretFields(formFromSchema(schema), message);
};

describe('fields that look like secrets', () => {
  test('names, titles and descriptions that name a secret, in any casing or separator', () => {
    for (const text of [
      'password',
      'Passphrase',
      'db_passwd',
      'clientSecret',
      'client-secret',
      'API key',
      'apiKey',
      'OPENAI_API_KEY',
      'Access token',
      'githubToken',
      'PIN',
      'PIN code',
      'Credit card',
      'card number',
      'CVV',
      'Security code',
      'SSN',
      'one-time code',
      '2FA',
      'Seed phrase',
      'Private key',
      'credentials',
      'Do not use your password. Enter the API key',
      'Token (not your password)',
    ]) {
      assert.equal(namesSecret(text), true, text);
    }
  });

  test('ordinary words are not secrets', () => {
    for (const text of [
      'Your name',
      'Email',
      'Max tokens',
      'Spinner',
      'Opinion',
      'Keyboard layout',
      'Compass heading',
      'Secretary',
      'Passport number? no: a date',
      'Token count',
      'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
      'Never share your password',
    ]) {
      assert.equal(namesSecret(text), false, text);
    }
  });

  test('a field is named by its own words; choices and yes/no never are', () => {
    assert.deepEqual(
      secrets({
        name: { type: 'string', title: 'Name' },
        pw: { type: 'string', title: 'Password' },
        key: { type: 'string', description: 'Your OpenAI API key' },
        v: { type: 'string', title: 'Value', description: 'The one-time code we texted you' },
        pin: { type: 'integer', title: 'PIN' },
        keep: { type: 'boolean', title: 'Remember my password' },
        kind: { type: 'string', title: 'Token kind', enum: ['a', 'b'] },
      }),
      ['pw', 'key', 'v', 'pin'],
    );
  });

  test('when only the message names a secret, every field typed into without a format is suspect', () => {
    assert.deepEqual(
      secrets({ value: { type: 'string' }, email: { type: 'string', format: 'email' }, n: { type: 'number' }, ok: { type: 'boolean' } }, 'Enter your password'),
      ['value', 'n'],
    );
    assert.deepEqual(secrets({ value: { type: 'string' } }, 'How many tokens should the summary use?'), []);
  });
});
