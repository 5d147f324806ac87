import * as z from 'zod';
import type { ConfigSource } from './definition';
import type { ConfigDiagnostic } from './diagnostic';
import type { JsoncDocument } from './jsonc-document';
import { issueDiagnostics } from './zod-diagnostics';

/** One of mcp.json's `inputs`: a value the person is asked for when a server that uses it starts. */
export interface InputRequest {
  id: string;
  type: 'promptString' | 'pickString';
  description: string;
  /** Typed text is hidden and the value is a secret (the extension keeps it in SecretStorage). */
  password: boolean;
  default?: string;
  /** pickString's choices. */
  options?: Array<{ label: string; value: string }>;
}

/**
 * Asks the person for one input; undefined when they declined. Injected: the CLI asks on the
 * terminal, the extension in a quick pick backed by SecretStorage.
 */
export type AskInput = (input: InputRequest, source: ConfigSource) => Promise<string | undefined>;

const nonEmpty = { error: 'must not be empty' } as const;
const PromptString = z.object({
  type: z.literal('promptString'),
  id: z.string().min(1, nonEmpty),
  description: z.string().optional(),
  default: z.string().optional(),
  password: z.boolean().optional(),
});
const Option = z.union([z.string(), z.object({ label: z.string().optional(), value: z.string() })], {
  error: 'must be a string or { "label": ..., "value": ... }',
});
const PickString = z.object({
  type: z.literal('pickString'),
  id: z.string().min(1, nonEmpty),
  description: z.string().optional(),
  default: z.string().optional(),
  options: z.array(Option).min(1, { error: 'must list at least one choice' }),
});

const HINTS = { id: 'the name servers use in ${input:id}', options: 'the choices to pick from', type: '"promptString" or "pickString"' };

/** The file's declared inputs by id; each broken one is a diagnostic, the rest still count. */
export function readInputs(doc: JsoncDocument, source: ConfigSource): { inputs: Map<string, InputRequest>; diagnostics: ConfigDiagnostic[] } {
  const inputs = new Map<string, InputRequest>();
  const diagnostics: ConfigDiagnostic[] = [];
  const node = doc.node(['inputs']);
  if (!node) return { inputs, diagnostics };
  if (node.type !== 'array') {
    return { inputs, diagnostics: [{ file: source.file, ...doc.anchor(['inputs']), severity: 'error', message: '"inputs" must be an array' }] };
  }
  (node.children ?? []).forEach((child, i) => {
    if (doc.hasSyntaxErrorIn(child)) return;
    const raw = doc.value(['inputs', i]);
    const type = (raw as { type?: unknown } | undefined)?.type;
    const what = `input ${i + 1}`;
    const schema = type === 'promptString' ? PromptString : type === 'pickString' ? PickString : undefined;
    if (!schema) {
      const message = type === undefined ? `missing "type" (${HINTS.type})` : `type ${JSON.stringify(type)} is not supported here: use ${HINTS.type}`;
      diagnostics.push({ file: source.file, ...doc.anchor(['inputs', i, 'type']), severity: 'error', message: `${what}: ${message}` });
      return;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      diagnostics.push(...issueDiagnostics(doc, ['inputs', i], parsed.error.issues, { what, hints: HINTS }));
      return;
    }
    const input = toRequest(parsed.data);
    if (inputs.has(input.id)) {
      diagnostics.push({
        file: source.file,
        ...doc.anchor(['inputs', i, 'id']),
        severity: 'warning',
        message: `input "${input.id}" is declared twice; the first one is used`,
      });
      return;
    }
    inputs.set(input.id, input);
  });
  return { inputs, diagnostics };
}

function toRequest(data: z.infer<typeof PromptString> | z.infer<typeof PickString>): InputRequest {
  const base = { id: data.id, description: data.description ?? data.id, ...(data.default !== undefined ? { default: data.default } : {}) };
  if (data.type === 'promptString') return { ...base, type: 'promptString', password: data.password === true };
  const options = data.options.map((o) => (typeof o === 'string' ? { label: o, value: o } : { label: o.label ?? o.value, value: o.value }));
  return { ...base, type: 'pickString', password: false, options };
}
