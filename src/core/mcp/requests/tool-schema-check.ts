import type { Tool } from '@modelcontextprotocol/client';
import { messageOf } from '../../../node/error-message';

type ClientAjv = typeof import('@modelcontextprotocol/client/validators/ajv');

/**
 * The tools whose `inputSchema` is not valid JSON Schema, each with why: a `type` that is no JSON type, a `$ref` to
 * nothing, a `pattern` that is no regular expression. The Messages API refuses a whole request for one such tool, so
 * the model is never offered it. Each schema is compiled as a validator would (Ajv, loaded on first use as the
 * client's own is: LAZY_MODULES), unknown keywords and formats let through as the API lets them.
 */
export function invalidSchemas(tools: readonly Tool[]): Map<string, string> {
  const problems = new Map<string, string>();
  if (tools.length === 0) return problems;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, as mcp-client-shims.ts does
  const { Ajv } = require('@modelcontextprotocol/client/validators/ajv') as ClientAjv;
  const ajv = new Ajv({ strict: false, validateSchema: false, validateFormats: false, logger: false });
  for (const tool of tools) {
    try {
      ajv.compile(tool.inputSchema);
    } catch (err) {
      problems.set(tool.name, messageOf(err));
    } finally {
      // One tool's `$id` is not another's: each is compiled alone.
      ajv.removeSchema();
    }
  }
  return problems;
}
