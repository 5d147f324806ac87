import type { JSONPath } from 'jsonc-parser';
import type * as z from 'zod';
import type { ConfigDiagnostic } from './diagnostic';
import type { JsoncDocument } from './jsonc-document';

const A: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

/**
 * Turns zod's issues for the value at `base` into diagnostics that point at the offending
 * property (or, for a missing one, at the object that lacks it) and say what it must be.
 * `hints` explain a missing property by its name: `{ command: 'the program to run, e.g. "npx"' }`.
 */
export function issueDiagnostics(
  doc: JsoncDocument,
  base: JSONPath,
  issues: readonly z.core.$ZodIssue[],
  context: { what: string; server?: string; hints?: Record<string, string> },
): ConfigDiagnostic[] {
  return issues.map((issue) => {
    const path = [...base, ...(issue.path as JSONPath)];
    const name = pathText(issue.path as JSONPath);
    const node = doc.node(path);
    const message = node === undefined && issue.code === 'invalid_type' ? missing(issue.path as JSONPath, context.hints) : wrong(issue, name, node?.type);
    return { file: doc.file, ...doc.anchor(path), severity: 'error', message: `${context.what}: ${message}`, server: context.server };
  });
}

function missing(path: JSONPath, hints: Record<string, string> = {}): string {
  const last = path[path.length - 1];
  const hint = typeof last === 'string' ? hints[last] : undefined;
  return `missing "${pathText(path)}"${hint ? ` (${hint})` : ''}`;
}

function wrong(issue: z.core.$ZodIssue, name: string, found: string | undefined): string {
  const subject = name ? `"${name}"` : 'it';
  if (issue.code === 'invalid_type') {
    const expected = A[issue.expected] ?? issue.expected;
    return `${subject} must be ${expected}${found ? `, not ${A[found] ?? found}` : ''}`;
  }
  // Every other issue the schemas can raise carries a message written for it ("must not be empty").
  return `${subject} ${issue.message}`;
}

/** `args[1]`, `env.TOKEN`: how the person would find it in the file. */
function pathText(path: JSONPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
