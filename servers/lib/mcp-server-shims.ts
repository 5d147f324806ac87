import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

type ServerAjv = typeof import('@modelcontextprotocol/server/validators/ajv');

/**
 * What the v2 MCP server package imports from its own `_shims` on Node, with its Ajv validator loaded on first use.
 * The package's shim imports the validator's chunk, all of Ajv with its formats and dialects, a large part of
 * dist/servers/modern-era.js, compiled and run by every bundled server a 2026-07-28 client opens (bench/README.md,
 * `eras`), though only an elicitation's
 * answer is validated with it (the tools' own schemas are zod's). The build points the package's `_shims` import here
 * (lazyServerAjv in scripts/esbuild-plugins.mjs); the validator loads from dist/servers/server-ajv.js.
 */

export { default as process } from 'node:process';

export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  private ajv: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // require, not import(): the server asks for a validator synchronously.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (above)
    this.ajv ??= new (require('@modelcontextprotocol/server/validators/ajv') as ServerAjv).AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}
