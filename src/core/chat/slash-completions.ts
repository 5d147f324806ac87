import type { SlashItem } from '../../common/requests';
import { readyServers, SLASH_COMMANDS, type SlashHub } from './slash-commands';

const MAX_ITEMS = 50;

/**
 * What the composer's `/` list offers for the text typed so far (the caret at its end): command
 * names first; after `/prompt ` the ready servers' prompts as `server/name`; after `/resource ` the
 * servers that offer resources, then their resource URIs. Matching is by prefix, then substring.
 */
export function completeSlash(text: string, hub: SlashHub): SlashItem[] {
  if (!text.startsWith('/') || text.startsWith('//') || text.includes('\n')) return [];
  const space = text.indexOf(' ');
  if (space === -1) {
    return rank(
      SLASH_COMMANDS.map((c) => ({ label: c.usage, detail: c.summary, insert: c.takesArgs ? `${c.name} ` : c.name, runs: !c.takesArgs, key: c.name })),
      text,
    );
  }
  const command = text.slice(0, space);
  const rest = text.slice(space + 1);
  if (command === '/prompt' && !rest.includes(' ')) return promptItems(hub, rest);
  if (command === '/resource') return resourceItems(hub, rest);
  return [];
}

function promptItems(hub: SlashHub, typed: string): SlashItem[] {
  const items = readyServers(hub).flatMap((s) =>
    s.prompts.map((p) => {
      const ref = `${s.name}/${p.name}`;
      const args = (p.arguments ?? []).map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ');
      const needsArgs = (p.arguments ?? []).length > 0;
      return {
        label: `${ref}${args ? ` ${args}` : ''}`,
        detail: p.title ?? p.description?.split('\n')[0],
        insert: `/prompt ${ref}${needsArgs ? ' ' : ''}`,
        // One with required arguments still runs: the chat asks for what is missing.
        runs: true,
        key: ref,
      };
    }),
  );
  return rank(items, typed);
}

function resourceItems(hub: SlashHub, rest: string): SlashItem[] {
  const space = rest.indexOf(' ');
  const servers = readyServers(hub).filter((s) => s.resources.length + s.resourceTemplates.length > 0);
  if (space === -1) {
    const items = servers.map((s) => {
      const n = s.resources.length;
      return { label: s.name, detail: `${n} resource${n === 1 ? '' : 's'}`, insert: `/resource ${s.name} `, runs: false, key: s.name };
    });
    return rank(items, rest);
  }
  const server = servers.find((s) => s.name === rest.slice(0, space));
  const typed = rest.slice(space + 1);
  if (!server || typed.includes(' ')) return [];
  const items = [
    ...server.resources.map((r) => ({ label: r.uri, detail: r.title ?? r.name, insert: `/resource ${server.name} ${r.uri}`, runs: true, key: r.uri })),
    // A template's URI is filled in by the person: picking it inserts the template's fixed start.
    ...server.resourceTemplates.map((t) => ({
      label: t.uriTemplate,
      detail: `template: ${t.title ?? t.name}`,
      insert: `/resource ${server.name} ${t.uriTemplate.split('{')[0]}`,
      runs: false,
      key: t.uriTemplate,
    })),
  ];
  return rank(items, typed);
}

/** Items whose key starts with what was typed, then those that contain it, each group in its own order. */
function rank(items: Array<SlashItem & { key: string }>, typed: string): SlashItem[] {
  const q = typed.toLowerCase();
  const starts = items.filter((i) => i.key.toLowerCase().startsWith(q));
  const contains = items.filter((i) => !i.key.toLowerCase().startsWith(q) && i.key.toLowerCase().includes(q));
  return [...starts, ...contains]
    .slice(0, MAX_ITEMS)
    .map(({ key: _key, ...item }) => (item.detail === undefined ? { label: item.label, insert: item.insert, runs: item.runs } : item));
}
