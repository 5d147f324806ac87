import { ProtocolError, ProtocolErrorCode, type ElicitRequestParams, type ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationHandler, ServerRequestContext } from './client-handlers';
import { FormSchemaError, formAnswer, formFromSchema, type ElicitationForm } from './elicitation-form';
import { secretFields } from './secret-fields';
import { urlSite, type UrlSite } from './url-site';

/** What the person did: filled the form in (accept), said no (decline), or dismissed it (cancel). */
export type ElicitationAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface FormElicitation {
  server: string;
  message: string;
  form: ElicitationForm;
  /** Names of the fields that look like they ask for a secret (secret-fields.ts): the front end warns. */
  secrets: string[];
}

export interface UrlElicitation {
  server: string;
  message: string;
  /** The full URL, to be shown whole before the person agrees to open it. */
  url: string;
  /** Whose page it is (its registrable domain) and, for an international name, how it reads. */
  site: UrlSite;
  elicitationId: string;
}

/** The "ask the person" half a front end supplies; a mode it leaves out is not declared. */
export interface ElicitationAsk {
  form?(request: FormElicitation, signal: AbortSignal): Promise<ElicitationAnswer>;
  /** `accept` means the person agreed and the front end opened the URL. */
  url?(request: UrlElicitation, signal: AbortSignal): Promise<'accept' | 'decline' | 'cancel'>;
}

/**
 * Elicitation as the host does it: the requested schema must be one the spec allows (else the server is
 * told why), the person's answer gets the schema's defaults and is checked before it is sent, and a URL is
 * only ever an http(s) one.
 */
export function elicitationHandler(ask: ElicitationAsk): ElicitationHandler {
  const modes: Array<'form' | 'url'> = [];
  if (ask.form) modes.push('form');
  if (ask.url) modes.push('url');
  return {
    modes,
    handle: (params, ctx) => (params.mode === 'url' ? askUrl(ask, params, ctx) : askForm(ask, params, ctx)),
  };
}

async function askForm(ask: ElicitationAsk, params: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult> {
  if (params.mode === 'url' || !ask.form) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'this host does not show elicitation forms');
  let form: ElicitationForm;
  try {
    form = formFromSchema(params.requestedSchema);
  } catch (err) {
    if (err instanceof FormSchemaError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `cannot show this form: ${err.message}`);
    throw err;
  }
  const secrets = secretFields(form, params.message);
  const answer = await ask.form({ server: ctx.server, message: params.message, form, secrets }, ctx.signal);
  if (answer.action !== 'accept') return { action: answer.action };
  const checked = formAnswer(form, answer.content);
  if ('errors' in checked) {
    const list = Object.entries(checked.errors)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    throw new ProtocolError(ProtocolErrorCode.InternalError, `the form's answer did not fit its schema and was not sent (${list})`);
  }
  return { action: 'accept', content: checked.content };
}

async function askUrl(ask: ElicitationAsk, params: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult> {
  if (params.mode !== 'url' || !ask.url) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'this host does not open elicitation URLs');
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `"${params.url}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `only http and https URLs are opened, not ${url.protocol}`);
  if (url.username || url.password) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'a URL with credentials in it is not opened');
  const action = await ask.url(
    { server: ctx.server, message: params.message, url: url.href, site: urlSite(url), elicitationId: params.elicitationId },
    ctx.signal,
  );
  return { action };
}
