/**
 * One field of an elicitation form and the check its value passes: shared by the host (which builds the
 * form from a server's schema and checks the answer again before it is sent) and the chat card (which
 * checks as the person types, so errors show next to the field). The schema validates the form the host
 * posts to the webview.
 */
import * as z from 'zod';

const label = z.string().max(10_000);
const count = z.number().int().nonnegative();
const choiceSchema = z.object({ value: z.string().max(10_000), title: label });
export type Choice = z.infer<typeof choiceSchema>;

const common = { name: z.string().max(1_000), title: label, description: label.optional(), required: z.boolean() };
const MAX_CHOICES = 500;

export const formFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    kind: z.literal('text'),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    minLength: count.optional(),
    maxLength: count.optional(),
    default: z.string().optional(),
  }),
  z.object({
    ...common,
    kind: z.literal('number'),
    integer: z.boolean(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.object({ ...common, kind: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({ ...common, kind: z.literal('select'), choices: z.array(choiceSchema).max(MAX_CHOICES), default: z.string().optional() }),
  z.object({
    ...common,
    kind: z.literal('multiselect'),
    choices: z.array(choiceSchema).max(MAX_CHOICES),
    minItems: count.optional(),
    maxItems: count.optional(),
    default: z.array(z.string()).optional(),
  }),
]);
export type FormField = z.infer<typeof formFieldSchema>;

export const fieldValueSchema = z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(MAX_CHOICES)]);
export type FieldValue = z.infer<typeof fieldValueSchema>;

/** Why `value` does not fit the field, or undefined when it does. */
export function checkValue(field: FormField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'expected text';
      if (field.minLength !== undefined && value.length < field.minLength) return `at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `at most ${field.maxLength} characters`;
      return field.format ? formatProblem(field.format, value) : undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'expected a number';
      if (field.integer && !Number.isInteger(value)) return 'expected a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected yes or no';
    case 'select':
      return typeof value === 'string' && field.choices.some((c) => c.value === value) ? undefined : `one of ${field.choices.map((c) => c.value).join(', ')}`;
    case 'multiselect': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return 'expected a list of choices';
      const bad = value.find((v) => !field.choices.some((c) => c.value === v));
      if (bad !== undefined) return `"${bad}" is not one of ${field.choices.map((c) => c.value).join(', ')}`;
      if (new Set(value).size !== value.length) return 'a choice is picked twice';
      if (field.minItems !== undefined && value.length < field.minItems) return `pick at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `pick at most ${field.maxItems}`;
      return undefined;
    }
  }
}

function formatProblem(format: 'email' | 'uri' | 'date' | 'date-time', value: string): string | undefined {
  const ok =
    format === 'email'
      ? z.email().safeParse(value).success
      : format === 'uri'
        ? URL.canParse(value)
        : format === 'date'
          ? z.iso.date().safeParse(value).success
          : z.iso.datetime({ offset: true }).safeParse(value).success;
  return ok ? undefined : `expected ${format === 'uri' ? 'a URL' : format === 'email' ? 'an email address' : `a ${format} (ISO 8601)`}`;
}
