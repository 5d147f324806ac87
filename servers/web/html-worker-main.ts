// The entry of the HTML-conversion workers (dist/servers/web-html-worker.js; html-converter.ts starts them).
// A bundle of its own rather than web.js run again in a worker: V8 keeps a script's whole source for as long
// as it runs, and the HTML tooling (domino, turndown, htmlparser2) is a large part of web.js, which the
// server's main thread would hold as idle memory though it never runs it (bench/README.md, `start`).
import { serveConversions } from './html-worker.js';

serveConversions();
