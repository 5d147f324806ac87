// Renders the marketplace icon (media/marketplace/icon.svg) to the 128x128 PNG the VSIX carries: the
// marketplace takes no SVG icon. Run after changing the SVG: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'media', 'marketplace', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: requireChromium(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('width="256" height="256"', 'width="128" height="128"')}</body></html>`,
  );
  await page.screenshot({ path: join(root, 'media', 'marketplace', 'icon.png'), omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
  console.log('wrote media/marketplace/icon.png (128x128)');
} finally {
  await browser.close();
}
