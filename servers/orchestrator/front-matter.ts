import { VFile } from 'vfile';
import { matter } from 'vfile-matter';

/**
 * Splits a Markdown file into its YAML front matter and body. vfile-matter parses with `yaml`
 * (YAML 1.2, no code-running tags); gray-matter was not taken because it evaluates `---js` front
 * matter, which a file in a cloned repository could use to run code in this process.
 */
export function splitFrontMatter(text: string): { data: unknown; body: string; hasFrontMatter: boolean } {
  const file = new VFile(text);
  // A bounded alias count keeps a "billion laughs" document from eating the process's memory.
  matter(file, { strip: true, yaml: { maxAliasCount: 100, uniqueKeys: true } });
  const body = String(file);
  return { data: file.data.matter, body, hasFrontMatter: body !== text };
}
