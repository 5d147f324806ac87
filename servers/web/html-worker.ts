import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown, type Markdown } from './html-to-markdown.js';
import { messageOf } from '../../src/node/error-message';

/**
 * The worker side of the HTML conversion: one request at a time in, one reply out. It runs in a
 * worker thread so that a page that takes long to convert costs that thread, not the server's
 * event loop, and can be stopped by terminating the thread.
 */

export interface ConversionRequest {
  html: string;
  base: string;
}

export type ConversionReply = ({ ok: true } & Markdown) | { ok: false; message: string };

export function serveConversions(): void {
  const port = parentPort;
  if (!port) throw new Error('serveConversions runs only in a worker thread');
  port.on('message', (request: ConversionRequest) => {
    let reply: ConversionReply;
    try {
      reply = { ok: true, ...htmlToMarkdown(request.html, new URL(request.base)) };
    } catch (err) {
      reply = { ok: false, message: messageOf(err) };
    }
    port.postMessage(reply);
  });
}
