import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes } from '../../src/node/byte-size';
import { FetchError, type FetchedResponse, type FetchLimits, guardedFetch } from '../lib/http-fetch.js';
import { type AllowList, BlockedUrlError, parseWebUrl } from '../lib/net-guard.js';
import { reportProgress, textResult, ToolError, type ToolExtra } from '../lib/results.js';
import { HtmlConversionError, type HtmlConverter } from './html-converter.js';
import { DEFAULT_PRUNE_LIMITS } from './prune-limits.js';
import { type ConvertHtml, type PageText, pageText } from './page-content.js';

/** The fetch_url tool: one guarded download, converted to text, served a page of characters at a time. */

export const DEFAULT_MAX_LENGTH = 20_000;
const PROGRESS_EVERY_MS = 1000;

export interface FetchUrlArgs {
  url: string;
  start_index?: number;
  max_length?: number;
}

export interface FetchUrlConfig {
  allow: AllowList;
  limits: FetchLimits;
  /** HTML to markdown within a time limit, cancellable (the worker-thread converter). */
  convertHtml: HtmlConverter['convert'];
}

export async function fetchUrl(args: FetchUrlArgs, extra: ToolExtra, config: FetchUrlConfig): Promise<CallToolResult> {
  const start = args.start_index ?? 0;
  const maxLength = args.max_length ?? DEFAULT_MAX_LENGTH;
  let url: URL;
  try {
    url = parseWebUrl(args.url);
  } catch (err) {
    throw new ToolError(`fetch_url: ${(err as Error).message}`);
  }

  // One deadline for the download and the conversion together: a page that is slow to convert
  // holds the call no longer than one that is slow to download.
  const deadline = Date.now() + config.limits.timeoutMs;
  const progress = progressReporter(extra, config.limits.maxBytes);
  let response;
  try {
    response = await guardedFetch(url, {
      allow: config.allow,
      limits: config.limits,
      signal: extra.signal,
      headers: { accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5' },
      onProgress: progress.update,
      otherHostRedirects: 'report',
    });
  } catch (err) {
    if (err instanceof BlockedUrlError || err instanceof FetchError) throw new ToolError(`fetch_url: ${err.message}`);
    throw err;
  } finally {
    progress.stop();
  }

  const { status, statusText, headers, truncated } = response;
  const finalUrl = response.url;
  if (response.redirectedTo) return redirectedElsewhere(url, finalUrl, status, response.redirectedTo);
  const page = await convertedPage(response, config, extra.signal, deadline);
  if (status >= 400) {
    const excerpt = page.text.trim().slice(0, 500);
    throw new ToolError(
      `fetch_url: ${finalUrl.href} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}.` + (excerpt ? `\nThe page said:\n${excerpt}` : ''),
    );
  }
  const text = page.text;
  if (text.length === 0) return textResult(`${finalUrl.href} returned an empty page (HTTP ${status}).`);
  if (start >= text.length) {
    throw new ToolError(`fetch_url: start_index=${start} is past the end of the content, which is ${text.length} characters long.`);
  }

  const end = Math.min(text.length, start + maxLength);
  const parts = [`Contents of ${finalUrl.href}${finalUrl.href !== url.href ? ` (redirected from ${url.href})` : ''}:`, ''];
  parts.push(text.slice(start, end));
  const notes: string[] = [];
  if (end < text.length) {
    notes.push(`[Showing characters ${start}-${end} of ${text.length}. The content was cut: ` + `call fetch_url with start_index=${end} to continue.]`);
  }
  if (truncated) {
    notes.push(`[The download stopped at ${formatBytes(config.limits.maxBytes)} (the size limit for one fetch); ` + 'the rest of the page was not read.]');
  }
  if (page.flattened) {
    notes.push(
      `[${page.flattened} HTML element${page.flattened === 1 ? ' was' : 's were'} nested more than ` +
        `${DEFAULT_PRUNE_LIMITS.maxDepth} levels deep; their text is shown without its structure.]`,
    );
  }
  if (notes.length) parts.push('', ...notes);
  return textResult(parts.join('\n'), {
    url: finalUrl.href,
    status,
    contentType: String(headers['content-type'] ?? ''),
    totalLength: text.length,
    startIndex: start,
    endIndex: end,
    ...(end < text.length ? { nextStartIndex: end } : {}),
    downloadTruncated: truncated,
    ...(page.flattened ? { flattenedElements: page.flattened } : {}),
  });
}

/**
 * A page that redirected to another host: the redirect is not followed (like Claude Code's WebFetch). Another host is
 * a new place, so the model is told where, and reaching it takes a call of its own, which the host sees and may ask
 * the person about as it would any other.
 */
function redirectedElsewhere(asked: URL, from: URL, status: number, to: URL): CallToolResult {
  const via = from.href !== asked.href ? ` (reached from ${asked.href})` : '';
  return textResult(
    `${from.href}${via} redirected (HTTP ${status}) to ${to.href}, on another host (${to.host}). The redirect was not followed: ` +
      `to read that page, call fetch_url again with the URL ${to.href}`,
    { url: from.href, status, redirectedTo: to.href },
  );
}

async function convertedPage(response: FetchedResponse, config: FetchUrlConfig, signal: AbortSignal, deadline: number): Promise<PageText> {
  const { url, headers, body, truncated } = response;
  const convert: ConvertHtml = (html, base) => config.convertHtml(html, base, { signal, timeoutMs: deadline - Date.now() });
  try {
    return await pageText(body, headers['content-type'], url, truncated, convert);
  } catch (err) {
    if (!(err instanceof HtmlConversionError)) throw err;
    const limit = `${+(config.limits.timeoutMs / 1000).toFixed(1)} s`;
    const what = err.timedOut ? `did not finish in time (the limit of ${limit} covers the download and the conversion together)` : err.message;
    throw new ToolError(
      `fetch_url: ${url.href} was downloaded, but turning its HTML into text ${what}. The page is too large or too ` +
        'intricate to convert; try a simpler version of it (a print or mobile view, or its raw text).',
    );
  }
}

/**
 * Sends progress notifications once the fetch has taken over a second, when the client asked for
 * them; each one carries more bytes than the last, as the protocol requires.
 */
function progressReporter(extra: ToolExtra, maxBytes: number): { update: (received: number, total?: number) => void; stop: () => void } {
  if (extra._meta?.progressToken === undefined) return { update: () => {}, stop: () => {} };
  let received = 0;
  let total: number | undefined;
  let lastSent = -1;
  const tick = (): void => {
    if (received <= lastSent) return;
    lastSent = received;
    const shownTotal = total !== undefined ? Math.min(total, maxBytes) : undefined;
    const message =
      received === 0 ? 'waiting for the server' : `downloaded ${formatBytes(received)}${shownTotal !== undefined ? ` of ${formatBytes(shownTotal)}` : ''}`;
    reportProgress(extra, received, shownTotal, message).catch(() => {});
  };
  const timer = setInterval(tick, PROGRESS_EVERY_MS);
  return {
    update: (n, t) => {
      received = n;
      total = t;
    },
    stop: () => clearInterval(timer),
  };
}
