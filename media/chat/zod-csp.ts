// Imported before any schema is built: zod 4 probes `new Function` for its fast parser, and the
// webview's CSP (no 'unsafe-eval') reports that probe as a violation even though zod catches it.
import * as z from 'zod';

z.config({ jitless: true });
