import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

type AjvProvider = typeof import('@modelcontextprotocol/sdk/validation/ajv');

/**
 * The v1 MCP SDK's Ajv validator, made on the first schema rather than with each Client and Server. The SDK
 * builds one (Ajv with its formats) in every constructor, though only a tool's outputSchema or an elicitation
 * answer uses it: memory a server that never sees one would carry (bench/README.md, `start`). The build points the SDK's import of its
 * provider here (lazyAjv in scripts/esbuild-plugins.mjs). The bundled servers' 2025-11-25 side uses it; the
 * extension's v2 client has its own (mcp-client-shims.ts).
 * Schemas are compiled when the SDK asks, as before: a bad one fails where it always did.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  private ajv: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // require, not import(): the SDK asks for a validator synchronously.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (above)
    this.ajv ??= new (require('@modelcontextprotocol/sdk/validation/ajv') as AjvProvider).AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}

/**
 * The name the SDK's Client and Server import it by: the build points their Ajv import here, which knip cannot see.
 * @public
 */
export { LazyJsonSchemaValidator as AjvJsonSchemaValidator };
