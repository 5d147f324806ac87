/**
 * A scripted model that wants one tool it cannot see: it searches with whatever search the request
 * offers (the API's tool search tool: the search and the call in one reply; the host's search_tools:
 * the call, through call_tool, in the next reply), calls what was found, then reports the result. With
 * everything loaded it calls the tool at once. `reachedAt` gets the 1-based number of the model call
 * that called `target`.
 */
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from './anthropic-api';

export function seeker(target: string, query: string, reachedAt: number[], offset = 0): (body: MessagesBody, index: number) => Reply {
  return (body, index) => {
    const call = index + 1 - offset;
    const found = /^## (\S+)$/m.exec(lastUserText(body))?.[1];
    const tools = body.tools ?? [];
    const use = (name: string): Reply => {
      if (name === target) reachedAt.push(call);
      if (tools.some((t) => t.name === 'call_tool')) return { toolUses: [{ name: 'call_tool', input: { name, arguments: {} } }] };
      return { toolUses: [{ name, input: {} }] };
    };
    if (isToolResultTurn(body)) return found ? use(found) : { text: `result: ${lastUserText(body)}` };
    if (tools.some((t) => t.type?.startsWith('tool_search_tool'))) {
      reachedAt.push(call);
      return { toolSearch: { query, use: true } };
    }
    if (tools.some((t) => t.name === 'search_tools')) return { toolUses: [{ name: 'search_tools', input: { query } }] };
    return use(target);
  };
}
