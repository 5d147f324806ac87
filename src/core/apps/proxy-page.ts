/**
 * The sandbox proxy's page (SEP-1865's "Sandbox proxy"): the middle of the double frame. The chat page frames
 * it from the extension's loopback listener with `sandbox="allow-scripts"` (an opaque origin, so it reaches
 * neither the chat page nor the workbench), and it frames the view as srcdoc with `allow-scripts` alone. It
 * relays JSON-RPC both ways and nothing else: what comes from its parent goes to the view, what comes from
 * the view goes to its parent, each told apart by `event.source` (every origin here is "null"), and the
 * reserved `ui/notifications/sandbox-*` messages never pass. It loads one view, once; the HTML already
 * carries its CSP, and the page itself is served under the same policy as a header, which the view inherits.
 * It makes no request of its own: a message it has no sender for is dropped.
 *
 * What would put something in front of the person (full screen, a link's question) passes only right after the
 * person clicked or typed in the view: the browser's transient user activation, which a gesture in the view gives
 * this page too (activation reaches a frame's ancestors, never its children, so a click elsewhere in the chat does
 * not count, and the view cannot script this page to fake it). Without one the view is answered with an error here.
 */
export const PROXY_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script>
(() => {
  'use strict';
  const host = window.parent;
  let view = null;
  const reserved = (m) => !!m && typeof m === 'object' && typeof m.method === 'string' && m.method.startsWith('ui/notifications/sandbox-');
  const intrusive = (m) => !!m && typeof m === 'object' && m.id !== undefined && (m.method === 'ui/open-link' || (m.method === 'ui/request-display-mode' && !(m.params && m.params.mode === 'inline')));
  const gesture = () => !!navigator.userActivation && navigator.userActivation.isActive;
  const NO_GESTURE = 'Refused: a view may ask for this only right after the person clicks or types in it.';
  window.addEventListener('message', (e) => {
    const m = e.data;
    if (e.source === host) {
      if (!reserved(m)) return void (view && view.contentWindow && view.contentWindow.postMessage(m, '*'));
      if (m.method === 'ui/notifications/sandbox-resource-ready' && !view && m.params && typeof m.params.html === 'string') load(m.params.html);
    } else if (view && e.source === view.contentWindow && !reserved(m)) {
      if (intrusive(m) && !gesture()) return void view.contentWindow.postMessage({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: NO_GESTURE } }, '*');
      host.postMessage(m, '*');
    }
  });
  function load(html) {
    view = document.createElement('iframe');
    view.setAttribute('sandbox', 'allow-scripts');
    view.setAttribute('title', 'MCP App view');
    view.srcdoc = html;
    document.body.appendChild(view);
  }
  host.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
})();
</script></body></html>`;
