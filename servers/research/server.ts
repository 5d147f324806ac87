import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { limitsFromEnv } from '../lib/http-fetch.js';
import { resourceListChanged, resourceUpdated } from '../lib/change-feed.js';
import { enableLogging } from '../lib/server-log.js';
import { parseAllowList } from '../lib/net-guard.js';
import { guarded, textResult, ToolError } from '../lib/results.js';
import { apiAllowList } from '../lib/upstream-api.js';
import { type ArxivConfig, DEFAULT_ARXIV_URL, searchArxiv } from './arxiv.js';
import { shortId } from './atom-feed.js';
import { INDEX_URI, papersMarkdown, TOPIC_URI_PREFIX, topicsMarkdown, topicUri } from './paper-markdown.js';
import { isFolderName, PaperStore, topicFolder } from './paper-store.js';
import { searchPromptText } from './search-prompt.js';

/**
 * The seed's arXiv research server: search_papers saves what it finds per topic in the workspace,
 * extract_info reads a saved paper back, papers:// resources browse the topics, and
 * generate_search_prompt drives the two tools into a literature summary.
 */

export function arxivConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ArxivConfig {
  return {
    arxivUrl: env.ARXIV_API_URL || DEFAULT_ARXIV_URL,
    apiAllow: apiAllowList([env.ARXIV_API_URL], parseAllowList(env.MCP_AGENT_FETCH_ALLOW)),
    limits: limitsFromEnv(env),
  };
}

const MARKDOWN = 'text/markdown';

export function buildResearchServer(workspace: string, config: ArxivConfig = arxivConfigFromEnv()): McpServer {
  const server = new McpServer(
    { name: 'research', title: 'MCP Agent research (arXiv)', version: '0.1.0' },
    { capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  const store = new PaperStore(workspace);
  const log = enableLogging(server, 'research');
  const subscribed = new Set<string>();
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  /** A topic's papers changed: its resource (both URI forms) and, for a new topic, the index. */
  const notifyChanged = (folder: string, created: boolean): void => {
    // The short form of a topic named "folders" is the index's URI, which is only ever the index.
    const short = `papers://${folder}`;
    const uris = [topicUri(folder), ...(short === INDEX_URI ? [] : [short]), ...(created ? [INDEX_URI] : [])];
    for (const uri of uris) resourceUpdated(server, uri, subscribed.has(uri));
  };

  server.registerTool(
    'search_papers',
    {
      title: 'Search arXiv papers',
      description:
        "Searches arXiv for papers on a topic (by relevance), saves each paper's title, authors, summary, PDF link " +
        'and date in the workspace under .mcp-agent/papers/<topic>/, and returns their ids for extract_info.',
      inputSchema: {
        topic: z.string().min(1).max(200).describe('The topic to search for, e.g. "quantum error correction"'),
        max_results: z.number().int().min(1).max(50).optional().describe('How many papers (1-50, default 5)'),
      },
      annotations: { title: 'Search arXiv papers', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    guarded(
      'search_papers',
      async ({ topic, max_results }, extra) => {
        // Name the folder first, so a topic that can't be one fails before any network call.
        const folder = topicFolder(topic);
        const papers = await searchArxiv(topic, max_results ?? 5, extra.signal, config);
        if (papers.length === 0) {
          return textResult(`arXiv has no papers matching "${topic}". Try broader or different words.`, { topic: folder, paper_ids: [] });
        }
        const saved = await store.save(topic, papers);
        log.log('info', `saved ${papers.length} paper${papers.length === 1 ? '' : 's'} on "${topic}" in ${saved.file}`);
        if (saved.created) resourceListChanged(server);
        notifyChanged(saved.folder, saved.created);
        const lines = [
          `Found ${papers.length} paper${papers.length === 1 ? '' : 's'} on "${topic}", saved in ${saved.file}:`,
          ...papers.map((p) => `- ${p.id}: ${p.title}`),
          '',
          `Call extract_info with a paper id for its details, or read ${topicUri(saved.folder)}.`,
        ];
        return textResult(lines.join('\n'), { topic: saved.folder, paper_ids: papers.map((p) => p.id) });
      },
      { heartbeat: true },
    ),
  );

  server.registerTool(
    'extract_info',
    {
      title: 'Get a saved paper',
      description: 'Returns the saved details (title, authors, summary, PDF link, date) of a paper found earlier by search_papers.',
      inputSchema: { paper_id: z.string().min(1).max(200).describe('The arXiv id search_papers returned, e.g. 2401.01234v1') },
      annotations: { title: 'Get a saved paper', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('extract_info', async ({ paper_id }) => {
      const id = shortId(paper_id);
      const found = await store.find(id);
      if (!found) {
        throw new ToolError(`No saved information for paper "${id}". Search first: call search_papers on its topic, which saves the papers it finds.`);
      }
      const info = { id: found.id, topic: found.folder, ...found.info };
      return textResult(JSON.stringify(info, null, 2), info);
    }),
  );

  server.registerResource('topics', INDEX_URI, { title: 'Research topics', description: 'The topics with saved papers', mimeType: MARKDOWN }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: MARKDOWN, text: topicsMarkdown(await store.topics()) }],
  }));

  const readTopic = async (uri: URL, variables: Variables): Promise<ReadResourceResult> => {
    const asked = safeDecode(Array.isArray(variables.topic) ? variables.topic.join('/') : String(variables.topic ?? ''));
    // The folder exactly as listed first, so one saved before a naming rule changed stays readable.
    const listed = isFolderName(asked) ? await store.read(asked) : undefined;
    const folder = listed ? asked : folderOf(asked);
    const papers = listed ?? (await store.read(folder));
    if (!papers) {
      throw new McpError(ErrorCode.InvalidParams, `No papers saved on topic "${folder}" yet. Call search_papers on it first.`);
    }
    return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: papersMarkdown(folder, papers) }] };
  };
  const completeTopic = async (value: string): Promise<string[]> => (await store.topics()).filter((t) => t.startsWith(value.toLowerCase()));

  // Topics live under their own path, so no topic name (not even "folders") can take the index's URI.
  server.registerResource(
    'topic',
    new ResourceTemplate(`${TOPIC_URI_PREFIX}{topic}`, {
      list: async () => ({
        resources: (await store.topics()).map((t) => ({
          uri: topicUri(t),
          name: t,
          title: `Papers on ${t.replace(/_/g, ' ')}`,
          mimeType: MARKDOWN,
        })),
      }),
      complete: { topic: completeTopic },
    }),
    { title: 'Papers on a topic', description: 'The papers saved on one topic, as markdown', mimeType: MARKDOWN },
    readTopic,
  );

  // The seed's papers://<topic> still reads a topic (links in old chats keep working), but lists
  // nothing: papers://folders always means the index there.
  server.registerResource(
    'topic-short',
    new ResourceTemplate('papers://{topic}', { list: undefined, complete: { topic: completeTopic } }),
    {
      title: 'Papers on a topic (short form)',
      description: `The same as ${TOPIC_URI_PREFIX}{topic}, except for a topic named "folders", which only the long form reaches`,
      mimeType: MARKDOWN,
    },
    readTopic,
  );

  server.registerPrompt(
    'generate_search_prompt',
    {
      title: 'Research a topic on arXiv',
      description: 'Asks the model to search arXiv for papers on a topic, read each one, and write a structured summary.',
      argsSchema: {
        topic: z.string().min(1).max(200).describe('The research topic'),
        num_papers: z
          .string()
          .regex(/^\d{1,2}$/, 'a whole number from 1 to 50')
          .optional()
          .describe('How many papers (default 5)'),
      },
    },
    ({ topic, num_papers }) => {
      const count = Math.min(50, Math.max(1, Number(num_papers ?? '5') || 5));
      return {
        description: `Research "${topic}" on arXiv`,
        messages: [{ role: 'user', content: { type: 'text', text: searchPromptText(topic, count) } }],
      };
    },
  );

  return server;
}

function folderOf(topic: string): string {
  try {
    return topicFolder(topic);
  } catch (err) {
    throw new McpError(ErrorCode.InvalidParams, (err as Error).message);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
