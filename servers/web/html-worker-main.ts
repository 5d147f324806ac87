// The entry of the HTML-conversion workers (dist/servers/web-html-worker.js; html-converter.ts starts them).
// A bundle of its own rather than web.js run again in a worker: V8 keeps a script's whole source for as long
// as it runs, and the HTML tooling (domino, turndown, htmlparser2) was 650 KB of web.js's 1.7 MB, held by
// the server's main thread that never runs it (1.3 MiB of its idle RSS).
import { serveConversions } from './html-worker.js';

serveConversions();
