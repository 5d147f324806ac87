/**
 * A stand-in for a browser, run as $BROWSER by the CLI's OAuth tests: appends its arguments (as JSON)
 * to the file in OAUTH_BROWSER_LOG, then "opens" the first one: follows every redirect, as a browser
 * would after the person clicked Allow, and appends where it ended and what it got.
 */
import { appendFileSync } from 'node:fs';

async function main(): Promise<void> {
  const log = process.env.OAUTH_BROWSER_LOG;
  const args = process.argv.slice(2);
  if (log) appendFileSync(log, `${JSON.stringify({ args })}\n`);
  const url = args[0];
  if (!url) return;
  const response = await fetch(url, { redirect: 'follow' });
  const text = await response.text();
  if (log) appendFileSync(log, `${JSON.stringify({ ended: response.url, status: response.status, text })}\n`);
}

void main();
