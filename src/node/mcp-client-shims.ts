import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

type ClientAjv = typeof import('@modelcontextprotocol/client/validators/ajv');

/**
 * What the v2 MCP client imports from its own `_shims` on Node, with its Ajv validator loaded on first use. The
 * client's shim imports the validator's chunk, all of Ajv with its formats and dialects (a large share
 * of the extension bundle: bench/README.md, `sizes`), though only a tool's outputSchema or an
 * elicitation's answer needs it. The build points the client's `_shims` import here (lazyClientAjv in
 * scripts/esbuild-plugins.mjs); the extension loads the validator from dist/lazy/client-ajv.js.
 */

/** In Node a fetch TypeError is a real network error, never CORS (as the client's Node shim says). */
export const CORS_IS_POSSIBLE = false;

export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  private ajv: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // require, not import(): the client asks for a validator synchronously.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (above)
    this.ajv ??= new (require('@modelcontextprotocol/client/validators/ajv') as ClientAjv).AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}
