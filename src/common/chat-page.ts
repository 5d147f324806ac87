/**
 * The chat page's HTML and its Content-Security-Policy, written once: VS Code's webviews serve it, and
 * the webview tests load the same page in Chromium, so the CSP they test is the one that ships.
 */
export interface ChatPageParts {
  /** A fresh random nonce per page: the only scripts and style tags that run carry it. */
  nonce: string;
  /** Where the page's own files come from (the webview's cspSource; the test server's origin). */
  source: string;
  script: string;
  style: string;
  bodyClass: string;
  /** Set by the tests only: nonce'd tags placed before the page's own (VS Code's API stand-in, a theme). */
  head?: string;
  /** Without the CSP (a test that compares with it off). */
  noCsp?: boolean;
  /** The origin of the MCP App sandbox proxy: the one place the page may frame (never its own origin). */
  frameSrc?: string;
}

/**
 * No network, no inline code, no eval: scripts and styles only from the extension, with the page's nonce. Frames
 * only from the MCP App sandbox proxy's origin, when there is one (docs/mcp-apps.md).
 */
export function chatPageCsp(nonce: string, source: string, frameSrc?: string): string {
  const frames = frameSrc && /^https?:\/\/[a-z0-9.:[\]-]+$/i.test(frameSrc) ? [`frame-src ${frameSrc}`] : [];
  return [
    `default-src 'none'`,
    `img-src ${source} data:`,
    `style-src ${source} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${source}`,
    ...frames,
  ].join('; ');
}

export function chatPageHtml(p: ChatPageParts): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
${p.noCsp ? '' : `<meta http-equiv="Content-Security-Policy" content="${chatPageCsp(p.nonce, p.source, p.frameSrc)}">`}
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${p.head ?? ''}
<link rel="stylesheet" nonce="${p.nonce}" href="${p.style}">
</head><body class="${p.bodyClass}"><div id="root"></div><script nonce="${p.nonce}" src="${p.script}"></script></body></html>`;
}
