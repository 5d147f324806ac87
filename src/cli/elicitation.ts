import { spawn } from 'node:child_process';
import type { ApprovalTerminal } from './approval';
import { escapeControls as printable } from './escape';
import { formDefaults, parseTyped, type FieldValue, type FormField } from '../core/mcp/client/elicitation-form';
import type { ElicitationAnswer, ElicitationAsk, FormElicitation, UrlElicitation } from '../core/mcp/client/elicitation-handler';

const MAX_TRIES = 3;

/**
 * A server's questions on the terminal. A form is asked field by field (Enter keeps the default); first
 * the person chooses to fill it in, decline, or cancel; one that looks like it asks for a secret is
 * warned about first. A URL is shown whole, after its site (the registrable domain, url-site.ts) and a
 * warning for an international name, and opened only after a yes,
 * with $BROWSER run directly (never through a shell), else printed to open by hand. With --yes a form
 * whose required fields all have defaults is accepted with those defaults; any other form, and every URL,
 * is declined.
 */
export function terminalElicitation(terminal: ApprovalTerminal, yes: boolean, env: NodeJS.ProcessEnv = process.env): ElicitationAsk {
  return {
    form: (request, signal) => askForm(terminal, yes, request, signal),
    url: (request, signal) => askUrl(terminal, yes, request, signal, env),
  };
}

async function askForm(terminal: ApprovalTerminal, yes: boolean, request: FormElicitation, signal: AbortSignal): Promise<ElicitationAnswer> {
  const { form } = request;
  terminal.line(`\nServer ${printable(request.server)} asks: ${printable(request.message)}`);
  const secrets = form.fields.filter((f) => request.secrets.includes(f.name));
  if (secrets.length > 0) {
    terminal.line(`  ! WARNING: this form asks for what looks like a secret (${printable(secrets.map((f) => f.title).join(', '))}).`);
    terminal.line('  ! MCP servers must not ask for passwords, keys, codes or card numbers in a form: do not type one here.');
  }
  for (const f of form.fields) terminal.line(`  · ${describe(f)}${request.secrets.includes(f.name) ? ' [looks like a secret]' : ''}`);
  if (yes) {
    const missing = form.fields.filter((f) => f.required && f.default === undefined);
    if (missing.length > 0) {
      terminal.line(`  (declined by --yes: ${printable(missing.map((f) => f.title).join(', '))} ${missing.length === 1 ? 'has' : 'have'} no default)`);
      return { action: 'decline' };
    }
    terminal.line('  (accepted with its defaults by --yes)');
    return { action: 'accept', content: formDefaults(form) };
  }
  const choice = (await terminal.ask('Fill it in? [y]es / [d]ecline / [C]ancel: '))?.trim().toLowerCase();
  if (choice === 'd' || choice === 'decline' || choice === 'n' || choice === 'no') return { action: 'decline' };
  if (choice !== 'y' && choice !== 'yes') return { action: 'cancel' };
  const content: Record<string, FieldValue> = {};
  for (const field of form.fields) {
    if (signal.aborted) return { action: 'cancel' };
    const value = await askField(terminal, field);
    if (value === 'cancel') return { action: 'cancel' };
    if (value !== undefined) content[field.name] = value;
  }
  return { action: 'accept', content };
}

/** A field's value, undefined to leave it out (its default then applies), or 'cancel' when input ended or tries ran out. */
async function askField(terminal: ApprovalTerminal, field: FormField): Promise<FieldValue | undefined | 'cancel'> {
  if (field.kind === 'select' || field.kind === 'multiselect') {
    field.choices.forEach((c, i) => terminal.line(`    ${i + 1}. ${printable(c.title)}${c.title !== c.value ? ` (${printable(c.value)})` : ''}`));
  }
  const fallback = field.default !== undefined ? ` [${printable(String(field.default))}]` : '';
  const how = field.kind === 'multiselect' ? ' (numbers, comma-separated)' : field.kind === 'boolean' ? ' (y/n)' : '';
  for (let i = 0; i < MAX_TRIES; i++) {
    const typed = await terminal.ask(`${printable(field.title)}${field.required ? '*' : ''}${how}${fallback}: `);
    if (typed === undefined) return 'cancel';
    const parsed = parseTyped(field, typed);
    if ('value' in parsed) return parsed.value;
    if ('empty' in parsed) {
      if (!field.required || field.default !== undefined) return undefined;
      terminal.line('  (required)');
      continue;
    }
    terminal.line(`  (${printable(parsed.error)})`);
  }
  terminal.line('  (no valid answer: cancelled)');
  return 'cancel';
}

async function askUrl(
  terminal: ApprovalTerminal,
  yes: boolean,
  request: UrlElicitation,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv,
): Promise<'accept' | 'decline' | 'cancel'> {
  terminal.line(`\nServer ${printable(request.server)} asks you to open a page: ${printable(request.message)}`);
  const { host, domain, unicode } = request.site;
  terminal.line(`  site: ${printable(domain)}${host !== domain ? ` (host ${printable(host)})` : ''}`);
  if (unicode)
    terminal.line(
      `  ! WARNING: the site's name has letters outside a-z; written out it reads "${printable(unicode)}", which can pass for another site's name.`,
    );
  terminal.line(`  ${printable(request.url)}`);
  if (yes) {
    terminal.line('  (declined: --yes never opens a page)');
    return 'decline';
  }
  const answer = (await terminal.ask('Open it? [y]es / [N]o: '))?.trim().toLowerCase();
  if (answer === undefined || signal.aborted) return 'cancel';
  if (answer !== 'y' && answer !== 'yes') return 'decline';
  const browser = env.BROWSER?.trim();
  if (browser) {
    // The URL is one argument of the browser program: no shell ever parses it.
    const child = spawn(browser, [request.url], { stdio: 'ignore', detached: true, shell: false });
    child.on('error', () => terminal.line(`  (could not run $BROWSER; open the address above by hand)`));
    child.unref();
  } else {
    terminal.line('  (open the address above in your browser)');
  }
  return 'accept';
}

function describe(f: FormField): string {
  const kind =
    f.kind === 'text'
      ? (f.format ?? 'text')
      : f.kind === 'number'
        ? `${f.integer ? 'whole number' : 'number'}${range(f.minimum, f.maximum)}`
        : f.kind === 'boolean'
          ? 'yes/no'
          : f.kind === 'select'
            ? 'one choice'
            : 'several choices';
  const desc = f.description ? `: ${printable(f.description)}` : '';
  return `${printable(f.title)}${f.required ? ' (required)' : ''}, ${kind}${desc}`;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  return max !== undefined ? ` of at most ${max}` : '';
}
