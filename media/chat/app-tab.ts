/**
 * A view in an editor tab of its own ("full screen"): the same double frame as under a card (app-frames.ts), filling
 * the tab. The host says which call's view once the page is ready; nothing else runs here.
 */
import './zod-csp';
import { hostMessageSchema } from '../../src/common/protocol';
import { AppFrames } from './app-frames';
import { h } from './dom';
import { connectHost, fromHost } from './vscode-api';
import './styles/base.css';
import './styles/apps.css';

const host = connectHost();
const apps = new AppFrames((message) => host.post(message), true);
const root = document.getElementById('root') ?? document.body;
const title = h('div', { class: 'app-tab-title' });
const anchor = h('div');
root.replaceChildren(h('div', { class: 'app-tab' }, title, anchor));
let shown = false;

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (apps.relayFromView(e) || !fromHost(e)) return;
  const parsed = hostMessageSchema.safeParse(e.data);
  if (!parsed.success) return;
  const msg = parsed.data;
  if (msg.type === 'appTab' && !shown) {
    shown = true;
    title.textContent = msg.title;
    apps.attach(msg.callId, anchor);
  } else if (msg.type === 'appFrame' || msg.type === 'app' || msg.type === 'appWaiting' || msg.type === 'appGone') {
    apps.handle(msg);
  }
});
host.post({ type: 'ready' });
