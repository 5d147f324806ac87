import { UriTemplate } from '@modelcontextprotocol/client';

/**
 * A server's resource template (RFC 6570, as the MCP SDK reads it): the variables to ask the
 * person for, in order and once each, and the URI their values make. Throws on a template the SDK
 * cannot parse (an unclosed `{`), so the caller can say so instead of opening a wrong URI.
 */
export function resourceTemplate(uriTemplate: string): { variables: string[]; expand(values: Record<string, string>): string } {
  const template = new UriTemplate(uriTemplate);
  return {
    variables: [...new Set(template.variableNames)],
    expand: (values) => template.expand(values),
  };
}
