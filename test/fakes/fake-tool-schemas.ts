// The Messages API's check of client tools' input schemas: one that is not valid JSON Schema (a `type` that is no
// JSON type, a `$ref` to nothing, a `pattern` that is no regular expression) fails the whole request with a 400.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ToolDefinition } from './fake-tool-search';

/** The API's message for the first tool whose input_schema does not compile, or undefined when all do. */
export function toolSchemaProblem(tools: readonly ToolDefinition[] | undefined): string | undefined {
  for (const [i, tool] of (tools ?? []).entries()) {
    if (tool.type !== undefined || tool.input_schema === undefined) continue;
    try {
      new AjvJsonSchemaValidator().getValidator(tool.input_schema as JsonSchemaType);
    } catch (err) {
      return `tools.${i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (tool "${tool.name}": ${(err as Error).message})`;
    }
  }
  return undefined;
}
