// The Messages API's check of client tools' input schemas: one that is not valid JSON Schema (a `type` that is no
// JSON type, a `$ref` to nothing, a `pattern` that is no regular expression) fails the whole request with a 400.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ToolDefinition } from './fake-tool-search';

/**
 * What compiling each schema (by its JSON text) said: null when it compiled. A chat sends the same definitions with
 * every model call, and a catalogue of a thousand tools often shares one schema, so each is compiled once, not per
 * tool per request. A fresh Ajv per compile still: two schemas with the same `$id` must not clash in one instance.
 */
const compiled = new Map<string, string | null>();

function compileProblem(schema: unknown): string | null {
  const key = JSON.stringify(schema);
  let problem = compiled.get(key);
  if (problem === undefined) {
    try {
      new AjvJsonSchemaValidator().getValidator(schema as JsonSchemaType);
      problem = null;
    } catch (err) {
      problem = (err as Error).message;
    }
    compiled.set(key, problem);
  }
  return problem;
}

/** The API's message for the first tool whose input_schema does not compile, or undefined when all do. */
export function toolSchemaProblem(tools: readonly ToolDefinition[] | undefined): string | undefined {
  for (const [i, tool] of (tools ?? []).entries()) {
    if (tool.type !== undefined || tool.input_schema === undefined) continue;
    const problem = compileProblem(tool.input_schema);
    if (problem !== null) {
      return `tools.${i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (tool "${tool.name}": ${problem})`;
    }
  }
  return undefined;
}
