/**
 * The chat webview's entry point. Everything from the host is validated with the shared protocol's
 * schema before it touches the DOM; everything sent back is a typed WebviewMessage.
 */
import './zod-csp';
import { hostMessageSchema, type ChatEvent, type ChatState, type HostMessage } from '../../src/common/protocol';
import { Correlator } from '../../src/common/requests';
import { isImageMime } from '../../src/common/image-types';
import { AppFrames } from './app-frames';
import { AskCards } from './ask-cards';
import { Composer } from './composer';
import { OlderLoader } from './older-loader';
import { h, icon } from './dom';
import { ScrollPin } from './scroll-pin';
import { stats } from './stats';
import { renderStatus } from './status-area';
import { usageTotal } from '../../src/common/usage-format';
import { Transcript } from './transcript';
import { connectHost, fromHost } from './vscode-api';
import { createWelcome } from './welcome';
import { WorkingLine } from './working-line';
import './styles/base.css';
import './styles/markdown.css';
import './styles/highlight.css';
import './styles/messages.css';
import './styles/tools.css';
import './styles/results.css';
import './styles/notices.css';
import './styles/composer.css';
import './styles/asks.css';
import './styles/working.css';
import './styles/message-actions.css';
import './styles/apps.css';

interface SavedState {
  draft?: string;
}

const host = connectHost();
const root = document.getElementById('root') ?? document.body.appendChild(h('div', { attrs: { id: 'root' } }));

const statusArea = h('div', { class: 'status-area', attrs: { id: 'status' } });
statusArea.hidden = true;
const messages = h('div', { attrs: { id: 'messages', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' } });
const scroller = h('div', { class: 'scroller', attrs: { id: 'scroller' } });
/** Read out by screen readers without moving the focus: turn ends (politely), approvals (at once). */
const announcer = h('div', { class: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
const alerter = h('div', { class: 'sr-only', attrs: { role: 'alert', 'aria-live': 'assertive', 'aria-atomic': 'true' } });
const jumpLatest = h(
  'button',
  { class: 'btn btn-secondary jump-latest', attrs: { type: 'button', 'aria-label': 'Jump to the latest message' } },
  icon('chevron', 'icon-down'),
  h('span', { text: 'Jump to latest' }),
);
jumpLatest.hidden = true;
const pin = new ScrollPin(scroller, messages, (pinned) => {
  jumpLatest.hidden = pinned;
});
jumpLatest.addEventListener('click', () => pin.jumpToBottom());

let saveTimer: ReturnType<typeof setTimeout> | undefined;
const requests = new Correlator((message) => host.post(message));
const composer = new Composer({
  announce: (text) => announce(text, false),
  onSend: (message) => {
    pin.jumpToBottom();
    return requests.request('send', message);
  },
  onStop: () => host.post({ type: 'stop' }),
  onPickModel: () => host.post({ type: 'pickModel' }),
  completeMentions: (query) => requests.request('completeMentions', { query }),
  onSlash: (text) => {
    host.post({ type: 'slash', text });
    pin.jumpToBottom();
  },
  completeSlash: (text) => requests.request('completeSlash', { text }),
  // The draft survives the view being hidden and restored.
  onDraft: (draft) => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => host.setState({ draft } satisfies SavedState), 300);
  },
});

/** Read out without moving the focus; `urgent` interrupts. Cleared first so the same words said twice are read twice. */
function announce(text: string, urgent: boolean): void {
  const region = urgent ? alerter : announcer;
  region.textContent = '';
  requestAnimationFrame(() => (region.textContent = text));
}

const asks = new AskCards({
  onAnswer: (askId, answer) => host.post({ type: 'answerAsk', askId, answer }),
  onAnnounce: announce,
  onChange: () => pin.follow(),
});

const apps = new AppFrames((message) => host.post(message));

const welcome = createWelcome((prompt) => composer.fill(prompt));
const transcript = new Transcript(messages, {
  onCopy: (text) => host.post({ type: 'copy', text }),
  onEdit: (id, text) => requests.request('editMessage', { id, text }),
  onRegenerate: (id) => requests.request('regenerate', { id }),
  onDecide: (callId, decision) => host.post({ type: 'approve', callId, decision }),
  onRestore: (turnId) => host.post({ type: 'restore', turnId }),
  onReview: (callId) => host.post({ type: 'reviewEdit', callId }),
  onAnnounce: announce,
  onOpenFile: (path, line) => host.post({ type: 'openFile', path, ...(line ? { line } : {}) }),
  onOpenImage: (mimeType, data) => {
    if (isImageMime(mimeType)) host.post({ type: 'openImage', mimeType, data });
  },
  onAction: (action) => {
    if (action === 'setKey') host.post({ type: 'setApiKey' });
    else if (action === 'retry') host.post({ type: 'retry' });
    else composer.sendOrQueue({ text: 'Continue', attachments: [], images: [] });
    if (action !== 'setKey') pin.jumpToBottom();
  },
  onAppCard: (callId, card) => apps.attach(callId, card),
  onCleared: () => apps.clear(),
  onChange: () => {
    welcome.hidden = !transcript.isEmpty;
    // The welcome reads from the top; only a conversation follows its newest line.
    if (transcript.isEmpty) scroller.scrollTop = 0;
    else pin.follow();
  },
});

const older = new OlderLoader(
  scroller,
  messages,
  (more) => transcript.renderOlder(more),
  () => transcript.hasOlder,
);
const working = new WorkingLine((text) => announce(text, false));
scroller.append(welcome, messages, working.el, asks.el);
root.replaceChildren(h('div', { class: 'chat' }, statusArea, h('div', { class: 'scroll-area' }, scroller, jumpLatest), composer.el), announcer, alerter);

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && composer.isBusy) {
    e.preventDefault();
    host.post({ type: 'stop' });
  }
});

let hadKey: boolean | undefined;

function applyState(state: ChatState): void {
  renderStatus(statusArea, state, () => host.post({ type: 'setApiKey' }));
  if (state.hasKey && hadKey !== true) transcript.keySet();
  hadKey = state.hasKey;
  composer.setBusy(state.busy);
  working.setBusy(state.busy);
  // Going back to a message waits until the turn is over (the host would refuse).
  root.classList.toggle('turn-running', state.busy);
  const u = state.chat?.usage;
  const total = u && u.input + u.output + u.cacheRead + u.cacheWrite > 0 ? `chat: ${usageTotal(u, state.chat?.unpricedTurns)}` : '';
  composer.setModel(state.model);
  composer.setHint([state.workspaceName, total].filter(Boolean).join(' · '));
}

/** Events that show the turn at work (or its end) themselves: the working line steps aside for them. */
const SHOWS_WORK = new Set<ChatEvent['kind']>(['assistant_text', 'thinking', 'tool_call', 'approval_request', 'compaction', 'turn_end']);

function handle(msg: HostMessage): void {
  switch (msg.type) {
    case 'state':
      return applyState(msg.state);
    case 'replay':
      transcript.replay(msg.events);
      older.start();
      asks.dropSettled();
      composer.remember(msg.events.flatMap((e) => (e.kind === 'user' ? [e.text] : [])));
      if (hadKey) transcript.keySet();
      return;
    case 'event':
      if (SHOWS_WORK.has(msg.event.kind)) working.quiet();
      if (msg.event.kind === 'tool_result') apps.resultArrived(msg.event.callId);
      return transcript.apply(msg.event);
    case 'delta':
      working.quiet();
      return transcript.delta(msg.turnId, msg.blockId, msg.text);
    case 'activity':
      working.show(msg.activity);
      return pin.follow();
    case 'progress':
      return transcript.progress(msg.callId, msg.progress, msg.total, msg.message);
    case 'attach':
      return composer.attach(msg.path, msg.label);
    case 'response':
      return requests.settle(msg);
    case 'focus':
      return composer.focus();
    case 'fill':
      return composer.add(msg.text);
    case 'ask':
      return asks.show(msg.ask);
    case 'askSettled':
      return asks.settle(msg.askId, msg.outcome);
    case 'appFrame':
    case 'app':
    case 'appWaiting':
    case 'appGone':
      return apps.handle(msg);
    case 'appTab':
      return; // for a view opened in an editor tab (app-tab.ts), never the chat page
  }
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  // A view's proxy frame is relayed to the host; any other window but the host's (a view, or frames it nests) is dropped.
  if (apps.relayFromView(e)) return;
  if (!fromHost(e)) return void console.warn('mcp-agent chat: dropped a message from a window that is not the host');
  const parsed = hostMessageSchema.safeParse(e.data);
  if (!parsed.success) {
    console.warn('mcp-agent chat: ignored an invalid host message', parsed.error.issues.slice(0, 3));
    return;
  }
  try {
    handle(parsed.data);
  } catch (err) {
    // One bad render must not take the whole chat down.
    console.error('mcp-agent chat: failed to render a host message', err);
  }
});

const saved = host.getState() as SavedState | undefined;
if (typeof saved?.draft === 'string' && saved.draft) composer.fill(saved.draft);
(window as unknown as { __mcpAgentChat: typeof stats }).__mcpAgentChat = stats;
host.post({ type: 'ready' });
