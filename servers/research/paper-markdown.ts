import type { PapersFile } from './paper-store.js';

/** Markdown views of saved papers, for the papers:// resources. */

/** The index of topics (the seed's URI). */
export const INDEX_URI = 'papers://folders';
/** Topics live below their own path, so no topic name can collide with the index. */
export const TOPIC_URI_PREFIX = 'papers://topics/';

export function topicUri(folder: string): string {
  return `${TOPIC_URI_PREFIX}${folder}`;
}

export function topicsMarkdown(topics: string[]): string {
  if (topics.length === 0) {
    return '# Research topics\n\nNo topics yet. Use the search_papers tool to find and save papers on a topic.\n';
  }
  const lines = ['# Research topics', '', ...topics.map((t) => `- ${t} (${topicUri(t)})`), ''];
  lines.push(`Read ${TOPIC_URI_PREFIX}<topic> for the papers saved on a topic.`, '');
  return lines.join('\n');
}

export function papersMarkdown(folder: string, papers: PapersFile): string {
  const entries = Object.entries(papers);
  const lines = [`# Papers on ${folder.replace(/_/g, ' ')}`, '', `Total papers: ${entries.length}`, ''];
  for (const [id, p] of entries) {
    lines.push(
      `## ${p.title || id}`,
      `- **Paper ID**: ${id}`,
      `- **Authors**: ${(p.authors ?? []).join(', ') || 'unknown'}`,
      `- **Published**: ${p.published || 'unknown'}`,
      `- **PDF**: ${p.pdf_url ? `[${p.pdf_url}](${p.pdf_url})` : 'none'}`,
      '',
      '### Summary',
      p.summary || '(no summary)',
      '',
      '---',
      '',
    );
  }
  return lines.join('\n');
}
