/**
 * An elicitation's requested schema as a form a front end can render (a chat card, terminal questions),
 * and the checks its answer passes before it is sent. Only what the spec allows (2025-11-25: a flat object
 * of string with format, number, integer, boolean, titled and untitled enums, single and multi select) makes
 * a form; anything else is refused with the reason, so a server cannot make the host show what it cannot check.
 */
import * as z from 'zod';
import { checkValue, type Choice, type FieldValue, type FormField } from '../../../common/form-field';

export type { FieldValue, FormField } from '../../../common/form-field';

export interface ElicitationForm {
  fields: FormField[];
}

const MAX_FIELDS = 50;
const MAX_CHOICES = 500;
const text = z.string().max(10_000);
const meta = { title: text.optional(), description: text.optional() };
const titled = z
  .array(z.object({ const: z.string(), title: text }).loose())
  .min(1)
  .max(MAX_CHOICES);

const StringProp = z
  .object({
    type: z.literal('string'),
    ...meta,
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().nonnegative().optional(),
    default: z.string().optional(),
  })
  .loose();
const EnumProp = z
  .object({
    type: z.literal('string'),
    ...meta,
    enum: z.array(z.string()).min(1).max(MAX_CHOICES),
    enumNames: z.array(z.string()).optional(),
    default: z.string().optional(),
  })
  .loose();
const OneOfProp = z.object({ type: z.literal('string'), ...meta, oneOf: titled, default: z.string().optional() }).loose();
const NumberProp = z
  .object({
    type: z.enum(['number', 'integer']),
    ...meta,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  })
  .loose();
const BooleanProp = z.object({ type: z.literal('boolean'), ...meta, default: z.boolean().optional() }).loose();
const MultiProp = z
  .object({
    type: z.literal('array'),
    ...meta,
    minItems: z.number().int().nonnegative().optional(),
    maxItems: z.number().int().nonnegative().optional(),
    items: z.object({ type: z.literal('string').optional(), enum: z.array(z.string()).min(1).max(MAX_CHOICES).optional(), anyOf: titled.optional() }).loose(),
    default: z.array(z.string()).optional(),
  })
  .loose();
const RequestedSchema = z
  .object({
    type: z.literal('object'),
    properties: z.record(z.string(), z.unknown()),
    required: z.array(z.string()).optional(),
  })
  .loose();

export class FormSchemaError extends Error {}

/** The form for a requested schema; throws FormSchemaError saying what the spec does not allow. */
export function formFromSchema(schema: unknown): ElicitationForm {
  const parsed = RequestedSchema.safeParse(schema);
  if (!parsed.success) throw new FormSchemaError('the requested schema must be an object schema with "properties"');
  const entries = Object.entries(parsed.data.properties);
  if (entries.length > MAX_FIELDS) throw new FormSchemaError(`the requested schema has ${entries.length} fields; a form takes at most ${MAX_FIELDS}`);
  const required = new Set(parsed.data.required ?? []);
  for (const name of required) {
    if (!Object.hasOwn(parsed.data.properties, name)) throw new FormSchemaError(`"${name}" is required but is not a property`);
  }
  const fields = entries.map(([name, prop]) => fieldOf(name, prop, required.has(name)));
  for (const f of fields) {
    const problem = f.default === undefined ? undefined : checkValue(f, f.default);
    if (problem) throw new FormSchemaError(`the default of "${f.name}" does not fit its own schema: ${problem}`);
  }
  return { fields };
}

function fieldOf(name: string, prop: unknown, required: boolean): FormField {
  const base = (p: { title?: string; description?: string }): Pick<FormField, 'name' | 'title' | 'description' | 'required'> => ({
    name,
    title: p.title || name,
    description: p.description,
    required,
  });
  const multi = MultiProp.safeParse(prop);
  if (multi.success) {
    const p = multi.data;
    const choices = p.items.anyOf?.map((c) => ({ value: c.const, title: c.title })) ?? p.items.enum?.map((v) => ({ value: v, title: v }));
    if (!choices) throw new FormSchemaError(`field "${name}" is a list without choices (items need "enum" or "anyOf")`);
    return { ...base(p), kind: 'multiselect', choices, minItems: p.minItems, maxItems: p.maxItems, default: p.default };
  }
  const oneOf = OneOfProp.safeParse(prop);
  if (oneOf.success)
    return { ...base(oneOf.data), kind: 'select', choices: oneOf.data.oneOf.map((c) => ({ value: c.const, title: c.title })), default: oneOf.data.default };
  const en = EnumProp.safeParse(prop);
  if (en.success) {
    const names = en.data.enumNames?.length === en.data.enum.length ? en.data.enumNames : undefined;
    return { ...base(en.data), kind: 'select', choices: en.data.enum.map((v, i) => ({ value: v, title: names?.[i] ?? v })), default: en.data.default };
  }
  const str = StringProp.safeParse(prop);
  if (str.success && !('enum' in str.data) && !('oneOf' in str.data)) {
    const p = str.data;
    return { ...base(p), kind: 'text', format: p.format, minLength: p.minLength, maxLength: p.maxLength, default: p.default };
  }
  const num = NumberProp.safeParse(prop);
  if (num.success) {
    const p = num.data;
    return { ...base(p), kind: 'number', integer: p.type === 'integer', minimum: p.minimum, maximum: p.maximum, default: p.default };
  }
  const bool = BooleanProp.safeParse(prop);
  if (bool.success) return { ...base(bool.data), kind: 'boolean', default: bool.data.default };
  const type = prop && typeof prop === 'object' ? (prop as { type?: unknown }).type : undefined;
  throw new FormSchemaError(
    `field "${name}" (${typeof type === 'string' ? `type ${type}` : 'no type'}) is not one a form can ask: ` +
      'the spec allows strings (email, uri, date, date-time), numbers, integers, booleans and enums, single or multiple',
  );
}

/** The defaults the schema gives, by field name (what an empty form sends). */
export function formDefaults(form: ElicitationForm): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const f of form.fields) if (f.default !== undefined) out[f.name] = f.default;
  return out;
}

/**
 * The content to send for what the person filled in: defaults where they left a field empty, then every
 * field checked. `errors` (by field name) when something is missing or does not fit; nothing is sent then.
 */
export function formAnswer(
  form: ElicitationForm,
  filled: Record<string, unknown>,
): { content: Record<string, FieldValue> } | { errors: Record<string, string> } {
  const content: Record<string, FieldValue> = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const value = Object.hasOwn(filled, f.name) && filled[f.name] !== undefined ? filled[f.name] : f.default;
    if (value === undefined) {
      if (f.required) errors[f.name] = 'required';
      continue;
    }
    const problem = checkValue(f, value);
    if (problem) errors[f.name] = problem;
    else content[f.name] = value as FieldValue;
  }
  const unknown = Object.keys(filled).filter((k) => !form.fields.some((f) => f.name === k));
  for (const k of unknown) errors[k] = 'not a field of this form';
  return Object.keys(errors).length > 0 ? { errors } : { content };
}

/**
 * A typed answer for one field (a terminal line, an input box): numbers parsed, yes/no read, choices by
 * number or value (comma-separated for several). `{ empty: true }` for nothing typed.
 */
export function parseTyped(field: FormField, typed: string): { value: FieldValue } | { empty: true } | { error: string } {
  const t = typed.trim();
  if (t === '') return { empty: true };
  let value: FieldValue;
  switch (field.kind) {
    case 'text':
      value = typed;
      break;
    case 'number':
      value = Number(t);
      break;
    case 'boolean': {
      const v = t.toLowerCase();
      if (['y', 'yes', 'true'].includes(v)) value = true;
      else if (['n', 'no', 'false'].includes(v)) value = false;
      else return { error: 'answer yes or no' };
      break;
    }
    case 'select':
      value = choiceOf(field.choices, t) ?? t;
      break;
    case 'multiselect':
      value = t
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => choiceOf(field.choices, p) ?? p);
      break;
  }
  const problem = checkValue(field, value);
  return problem ? { error: problem } : { value };
}

function choiceOf(choices: Choice[], typed: string): string | undefined {
  const n = Number(typed);
  if (Number.isInteger(n) && n >= 1 && n <= choices.length) return choices[n - 1]!.value;
  return choices.find((c) => c.value === typed || c.title === typed)?.value;
}
