import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FormSchemaError, formAnswer, formDefaults, formFromSchema, parseTyped } from '../../src/core/mcp/client/elicitation-form';

const schema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    born: { type: 'string', format: 'date' },
    n: { type: 'number', minimum: 0, maximum: 10, default: 3.5 },
    k: { type: 'integer', default: 2 },
    ok: { type: 'boolean' },
    plain: { type: 'string', enum: ['a', 'b'] },
    legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
    titled: { type: 'string', oneOf: [{ const: 'h1', title: 'Hero' }] },
    many: { type: 'array', items: { type: 'string', enum: ['p', 'q', 'r'] }, minItems: 1, maxItems: 2, default: ['p'] },
    manyTitled: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Trout' },
        ],
      },
    },
  },
  required: ['email'],
};

describe('elicitation forms', () => {
  test('every type the spec allows becomes a field', () => {
    const form = formFromSchema(schema);
    assert.deepEqual(
      form.fields.map((f) => `${f.name}:${f.kind}`),
      [
        'email:text',
        'born:text',
        'n:number',
        'k:number',
        'ok:boolean',
        'plain:select',
        'legacy:select',
        'titled:select',
        'many:multiselect',
        'manyTitled:multiselect',
      ],
    );
    const legacy = form.fields.find((f) => f.name === 'legacy');
    assert.deepEqual(legacy?.kind === 'select' && legacy.choices, [
      { value: 'x', title: 'Ex' },
      { value: 'y', title: 'Why' },
    ]);
    assert.deepEqual(formDefaults(form), { n: 3.5, k: 2, many: ['p'] });
  });

  test('defaults fill what was left empty; every value is checked', () => {
    const form = formFromSchema(schema);
    assert.deepEqual(formAnswer(form, { email: 'a@b.co' }), { content: { email: 'a@b.co', n: 3.5, k: 2, many: ['p'] } });
    const bad = formAnswer(form, { email: 'nope', born: '2024-13-40', n: 11, k: 1.5, plain: 'c', many: ['p', 'q', 'r'], extra: 1 });
    assert.ok('errors' in bad);
    assert.deepEqual(Object.keys(bad.errors).sort(), ['born', 'email', 'extra', 'k', 'many', 'n', 'plain']);
    assert.deepEqual(formAnswer(form, {}), { errors: { email: 'required' } });
  });

  test('what the spec does not allow is refused with the reason', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ type: 'object', properties: { o: { type: 'object' } } }, /field "o" \(type object\)/],
      [{ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } }, /field "a"/],
      [{ type: 'object', properties: {}, required: ['x'] }, /"x" is required but is not a property/],
      [{ type: 'object', properties: { s: { type: 'string', enum: ['a'], default: 'b' } } }, /default of "s"/],
      [{ type: 'array' }, /must be an object schema/],
      [{ type: 'object', properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'string' }])) }, /at most 50/],
    ];
    for (const [s, re] of bad)
      assert.throws(
        () => formFromSchema(s),
        (e: unknown) => e instanceof FormSchemaError && re.test(e.message),
        JSON.stringify(s),
      );
  });

  test('typed answers: numbers, yes/no, choices by number or value', () => {
    const form = formFromSchema(schema);
    const field = (name: string) => form.fields.find((f) => f.name === name)!;
    assert.deepEqual(parseTyped(field('n'), '7'), { value: 7 });
    assert.ok('error' in parseTyped(field('k'), '1.5'));
    assert.deepEqual(parseTyped(field('ok'), 'Yes'), { value: true });
    assert.deepEqual(parseTyped(field('plain'), '2'), { value: 'b' });
    assert.deepEqual(parseTyped(field('titled'), 'Hero'), { value: 'h1' });
    assert.deepEqual(parseTyped(field('many'), '1, r'), { value: ['p', 'r'] });
    assert.deepEqual(parseTyped(field('email'), '  '), { empty: true });
  });
});
