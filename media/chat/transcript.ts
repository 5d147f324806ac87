/**
 * The message list: turns ChatEvents (live or replayed) and streaming deltas into DOM. Live and
 * replayed chats go through the same `apply`, so they look the same.
 */
import type { ApprovalDecision, ChatEvent, TurnAction } from '../../src/common/protocol';
import { tokens } from '../../src/common/usage-format';
import { ApprovalCard } from './approval-card';
import { h, icon, type IconName } from './dom';
import { FrameBatcher } from './frame-batcher';
import type { CopyHandler } from './markdown';
import { stats } from './stats';
import { TextBlock } from './text-block';
import { ToolCard, type OpenImage } from './tool-card';
import { actionButtons, retireActions } from './turn-actions';
import { answerActions, userActions, type MessageActionDeps } from './message-actions';
import { basename, checkpointRows, listingLines, promptMessages, turnEndMarker, turnUsage, type EventOf } from './transcript-parts';
import { firstShownPart, replayParts } from './replay-parts';

export interface TranscriptDeps extends MessageActionDeps {
  onCopy: CopyHandler;
  /** A file named in an answer, to open in the editor (at the line, when given). */
  onOpenFile: (path: string, line: number | undefined) => void;
  onDecide: (callId: string, decision: ApprovalDecision) => void;
  /** A tool's image result, to open in an editor tab. */
  onOpenImage: OpenImage;
  /** "Restore files to before this turn". */
  onRestore: (turnId: string) => void;
  /** Retry, Set API Key or Continue on a notice. */
  onAction: (action: TurnAction) => void;
  /** After any change that may have grown the list (scrolling, empty state). */
  onChange: () => void;
  /** Said to a screen reader: a turn ended, an approval is waiting. `urgent` interrupts. */
  onAnnounce: (text: string, urgent: boolean) => void;
  /** "Review changes" on the card of a file change: open its diff again. */
  onReview: (callId: string) => void;
  /** A card of a tool with a view (MCP Apps) came on the page: its view goes under it (app-frames.ts). */
  onAppCard?: (callId: string, card: HTMLElement) => void;
  /** The list was emptied (a replay, another chat): the views on it go. */
  onCleared?: () => void;
}

export class Transcript {
  private readonly turns = new Map<string, HTMLElement>();
  private readonly blocks = new Map<string, TextBlock>();
  private readonly tools = new Map<string, ToolCard>();
  private readonly approvals = new Map<string, ApprovalCard>();
  private readonly batcher: FrameBatcher;
  private lastTurn: HTMLElement | undefined;
  /** False while a saved chat is replayed: its Retry waits are long over. */
  private live = true;
  /**
   * The cards and blocks by their element, so the end of a turn looks only inside that turn. Looking through
   * every card of the chat at each turn's end (and for action rows at each event) made replaying a
   * chat quadratic (bench/README.md, `webview`).
   */
  private readonly cardOf = new WeakMap<Element, ToolCard>();
  private readonly approvalOf = new WeakMap<Element, ApprovalCard>();
  private readonly blockOf = new WeakMap<Element, TextBlock>();
  /** An action row (Retry, Set API Key, Continue) may be on the page: the next event retires it. */
  private actionsShown = false;
  /** The person's message the turns from here on answer, when the chat can go back to it (regenerate). */
  private question: string | undefined;
  private readonly questionOf = new Map<string, string | undefined>();
  /** Where new elements go: the list, or the fragment of an older part of a saved chat while it is drawn. */
  private target: HTMLElement | DocumentFragment;
  /**
   * The older part of a saved chat, not drawn yet: drawing a 1,000-message chat in one go froze the page for
   * one to four seconds. `starts` are where its parts start (replay-parts.ts); `end` is where the drawn part starts.
   */
  private older: { events: ChatEvent[]; starts: number[]; end: number } | undefined;
  /** A key was set: the older parts drawn later lose their "no key" notices too. */
  private keyKnown = false;
  private compactions = 0;

  constructor(
    readonly el: HTMLElement,
    private readonly deps: TranscriptDeps,
  ) {
    this.batcher = new FrameBatcher(() => deps.onChange());
    this.target = el;
  }

  get isEmpty(): boolean {
    return this.el.childElementCount === 0;
  }

  clear(): void {
    this.deps.onCleared?.();
    this.batcher.clear();
    this.turns.clear();
    this.blocks.clear();
    this.tools.clear();
    this.approvals.clear();
    this.lastTurn = undefined;
    this.actionsShown = false;
    this.question = undefined;
    this.questionOf.clear();
    this.older = undefined;
    this.compactions = 0;
    this.el.replaceChildren();
  }

  /** Draws the newest messages of a saved chat now; the older ones wait for renderOlder. */
  replay(events: ChatEvent[]): void {
    this.clear();
    const starts = replayParts(events);
    const k = firstShownPart(events, starts);
    const from = starts[k] ?? 0;
    this.older = k > 0 ? { events, starts: starts.slice(0, k), end: from } : undefined;
    this.live = false;
    try {
      for (let i = from; i < events.length; i++) this.applyQuiet(events[i] as ChatEvent);
    } finally {
      this.live = true;
    }
    this.deps.onChange();
  }

  /** Older messages of a saved chat wait to be drawn. */
  get hasOlder(): boolean {
    return this.older !== undefined;
  }

  /**
   * Draws older parts of the saved chat on top of the list, the newest of them first, while `more()` says so
   * (at least one). Returns whether any are left. The caller keeps the scroll position.
   */
  renderOlder(more: () => boolean): boolean {
    const older = this.older;
    if (!older) return false;
    const saved = { lastTurn: this.lastTurn, question: this.question, actionsShown: this.actionsShown };
    this.live = false;
    try {
      do {
        const [start, end] = [older.starts.pop() ?? 0, older.end];
        older.end = start;
        const part = document.createDocumentFragment();
        this.target = part;
        this.actionsShown = false;
        for (let i = start; i < end; i++) {
          // One bad render must not stop the rest of the chat from coming.
          try {
            this.applyQuiet(older.events[i] as ChatEvent);
          } catch (err) {
            console.error('mcp-agent chat: failed to render a saved message', err);
          }
        }
        // A newer message follows the part, and a message retires the action rows before it.
        retireActions(part);
        if (this.keyKnown) for (const el of part.querySelectorAll('.notice[data-action="setKey"]')) el.remove();
        this.el.prepend(part);
      } while (older.starts.length > 0 && more());
    } finally {
      this.target = this.el;
      this.live = true;
      ({ lastTurn: this.lastTurn, question: this.question, actionsShown: this.actionsShown } = saved);
    }
    if (older.starts.length === 0) this.older = undefined;
    return this.older !== undefined;
  }

  apply(event: ChatEvent): void {
    this.applyQuiet(event);
    this.deps.onChange();
  }

  /**
   * A key was set: "no key" notices go, and a turn that failed on a rejected key offers Retry.
   * Only the newest failure keeps a button (retired ones stay retired).
   */
  keySet(): void {
    this.keyKnown = true;
    for (const el of this.el.querySelectorAll('.notice[data-action="setKey"]')) el.remove();
    for (const row of this.el.querySelectorAll('.turn-actions')) {
      if (row.querySelector('[data-action="setKey"]')) row.replaceWith(actionButtons('retry', undefined, this.deps.onAction));
    }
    this.deps.onChange();
  }

  progress(callId: string, progress: number, total: number | undefined, message: string | undefined): void {
    this.tools.get(callId)?.setProgress(progress, total, message);
  }

  delta(turnId: string, blockId: string, text: string): void {
    stats.deltas++;
    const block = this.block(turnId, blockId);
    if (block.append(text)) this.batcher.mark(block);
  }

  private retire(): void {
    if (!this.actionsShown) return;
    retireActions(this.target);
    this.actionsShown = false;
  }

  private applyQuiet(e: ChatEvent): void {
    if (e.kind !== 'turn_end' && e.kind !== 'notice' && e.kind !== 'checkpoint' && e.kind !== 'compaction') this.retire();
    switch (e.kind) {
      case 'user':
        return this.user(e);
      case 'assistant_text':
        return this.block(e.turnId, e.blockId).setFinal(e.text);
      case 'thinking':
        return this.thinking(e);
      case 'tool_call':
        return this.toolCall(e);
      case 'tool_result':
        return this.toolResult(e);
      case 'approval_request':
        return this.approvalRequest(e);
      case 'approval':
        this.approvals.get(e.callId)?.decide(e.decision);
        // Allowed: it runs now. Denied: it never runs.
        this.tools.get(e.callId)?.setStatus(e.decision === 'deny' ? 'denied' : 'running');
        return;
      case 'turn_end':
        return this.turnEnd(e);
      case 'notice':
        return this.notice(e);
      case 'checkpoint':
        return this.checkpoint(e);
      case 'compaction':
        return this.compaction(e);
    }
  }

  private user(e: EventOf<'user'>): void {
    const chips = e.attachments.length
      ? h(
          'div',
          { class: 'attachments' },
          ...e.attachments.map((p) =>
            h('span', { class: 'attachment-chip readonly', attrs: { title: p } }, icon('file'), h('span', { class: 'chip-label', text: basename(p) })),
          ),
        )
      : null;
    const body = e.prompt ? promptMessages(e.prompt) : h('div', { class: 'user-text', text: e.text });
    // A view's message (MCP Apps) is the app's words, never the person's: labelled as such, and not theirs to edit.
    const from = e.app !== undefined ? h('div', { class: 'msg-from-app', text: `Sent by the interactive view of ${e.app}` }) : null;
    const bubble = h('div', { class: e.app !== undefined ? 'msg user from-app' : 'msg user', attrs: { 'data-id': e.id } }, from, chips, body);
    this.target.append(bubble);
    // A prompt's messages are the server's: its answer can be asked for again, the prompt itself not edited here.
    if (e.span?.from !== undefined && !e.prompt && e.app === undefined) this.target.append(userActions(bubble, e.id, e.text, this.deps));
    this.question = e.span ? e.id : undefined;
    // A new question starts a new visual group even if the next turn id is unknown yet.
    this.lastTurn = undefined;
  }

  private turn(turnId: string): HTMLElement {
    let turn = this.turns.get(turnId);
    if (!turn) {
      turn = h('div', { class: 'msg assistant', attrs: { 'data-turn-id': turnId } });
      this.turns.set(turnId, turn);
      this.questionOf.set(turnId, this.question);
      this.target.append(turn);
    }
    this.lastTurn = turn;
    return turn;
  }

  private block(turnId: string, blockId: string): TextBlock {
    const key = `${turnId}\u0000${blockId}`;
    let block = this.blocks.get(key);
    if (!block) {
      block = new TextBlock(blockId, this.deps);
      this.blocks.set(key, block);
      this.blockOf.set(block.el, block);
      this.turn(turnId).append(block.el);
    }
    return block;
  }

  private toolCall(e: EventOf<'tool_call'>): void {
    if (this.tools.has(e.callId)) return;
    const card = new ToolCard(e, this.deps.onOpenImage);
    this.tools.set(e.callId, card);
    this.cardOf.set(card.el, card);
    const turn = this.turn(e.turnId);
    // The question reads before the call it allows: the card goes below its approval.
    const approval = this.approvals.get(e.callId)?.el;
    if (approval?.parentElement === turn) approval.after(card.el);
    else turn.append(card.el);
    if (e.app) this.deps.onAppCard?.(e.callId, card.el);
  }

  private toolResult(e: EventOf<'tool_result'>): void {
    const card = this.tools.get(e.callId);
    // The approval's answer is the record of the person's decision: a denied call is shown as that, not as a failure.
    if (e.isError && this.approvals.get(e.callId)?.isDenied) card?.setDenied(e.content);
    else card?.setResult(e.isError, e.content, e.durationMs);
  }

  private approvalRequest(e: EventOf<'approval_request'>): void {
    if (this.approvals.has(e.callId)) return;
    const card = new ApprovalCard(e, this.deps.onDecide, e.review ? () => this.deps.onReview(e.callId) : undefined);
    if (this.live) this.deps.onAnnounce(`Approval needed: ${e.server} ${e.tool}. ${e.reason}`, true);
    this.approvals.set(e.callId, card);
    this.approvalOf.set(card.el, card);
    this.tools.get(e.callId)?.setStatus('waiting');
    const tool = this.tools.get(e.callId)?.el;
    if (tool?.parentElement) tool.before(card.el);
    // A view's call belongs to no turn: outside every turn, so no turn's end marks it undecided.
    else if (e.fromApp) this.target.append(card.el);
    else (this.lastTurn ?? this.target).append(card.el);
  }

  private turnEnd(e: EventOf<'turn_end'>): void {
    this.batcher.flush();
    const turn = this.turn(e.turnId);
    for (const el of turn.querySelectorAll('.tool-card')) {
      const card = this.cardOf.get(el);
      if (card?.isRunning) card.setStatus('error', e.status === 'stopped' ? 'stopped' : 'not finished');
    }
    for (const el of turn.querySelectorAll('.approval')) this.approvalOf.get(el)?.expire();
    for (const el of turn.querySelectorAll('.markdown')) {
      const block = this.blockOf.get(el);
      if (block && !block.isFinal) block.endStream();
    }
    this.retire();
    if (this.live)
      this.deps.onAnnounce(
        e.status === 'done' ? 'The answer is complete.' : e.status === 'stopped' ? 'Stopped.' : (e.error ?? 'The turn ended.'),
        e.status === 'error',
      );
    const marker = turnEndMarker(e);
    if (e.action) {
      marker.append(actionButtons(e.action, this.live ? e.retryAfterS : undefined, this.deps.onAction));
      this.actionsShown = true;
    }
    turn.append(marker);
    if (e.usage) turn.append(turnUsage(e.usage));
    const blocks = [...turn.querySelectorAll('.markdown')].flatMap((el) => this.blockOf.get(el) ?? []);
    const question = this.questionOf.get(e.turnId);
    const markdown = blocks.length > 0 ? (): string => blocks.map((b) => b.source).join('\n\n') : undefined;
    if (markdown || question) turn.append(answerActions(markdown, question, this.deps));
  }

  private checkpoint(e: EventOf<'checkpoint'>): void {
    this.turn(e.turnId).append(...checkpointRows(e, () => this.deps.onRestore(e.turnId)));
  }

  /** The model's thinking: closed by default, above the text of the same reply. */
  private thinking(e: EventOf<'thinking'>): void {
    const text = h('div', { class: 'thinking-text', text: e.text });
    const details = h(
      'details',
      { class: 'thinking', attrs: { 'data-block-id': e.blockId } },
      h('summary', {}, icon('info'), h('span', { text: 'Thinking' })),
      text,
    );
    const turn = this.turn(e.turnId);
    const reply = e.blockId.slice(0, e.blockId.lastIndexOf(':') + 1);
    const index = (id: string): number => Number(id.slice(id.lastIndexOf(':') + 1));
    const after = [...turn.querySelectorAll<HTMLElement>('[data-block-id]')].find((el) => {
      const id = el.dataset.blockId ?? '';
      return id.startsWith(reply) && index(id) > index(e.blockId);
    });
    if (after) after.before(details);
    else turn.append(details);
  }

  /** Older messages were summarised: a marker that opens to the summary the model now works from. */
  private compaction(e: EventOf<'compaction'>): void {
    const summary = new TextBlock(`compaction-${e.turnId}-${this.compactions++}`, this.deps);
    summary.setFinal(e.summary);
    const label = `Conversation compacted: ${e.replaced} earlier message${e.replaced === 1 ? '' : 's'} summarised to fit the context window (about ${tokens(e.tokensBefore)} → ${tokens(e.tokensAfter)} tokens)`;
    const details = h('details', { class: 'compaction' }, h('summary', {}, icon('info'), h('span', { text: label })), summary.el);
    // Where it happened: before the turn's answer, or between two of its model calls.
    const turn = this.turns.get(e.turnId);
    if (turn) turn.append(details);
    else this.target.append(details);
  }

  private notice(e: EventOf<'notice'>): void {
    const iconName: IconName = e.level === 'info' ? 'info' : e.level;
    const body = e.listing ? listingLines(e.text) : h('span', { text: e.text });
    const el = h(
      'div',
      {
        class: `notice notice-${e.level}${e.listing ? ' notice-listing' : ''}`,
        attrs: { 'data-level': e.level, role: e.level === 'error' ? 'alert' : 'note' },
      },
      icon(iconName),
      body,
    );
    if (e.action) {
      el.dataset.action = e.action;
      this.retire();
      el.append(actionButtons(e.action, undefined, this.deps.onAction));
      this.actionsShown = true;
    }
    this.target.append(el);
  }
}
