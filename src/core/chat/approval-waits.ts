import type { ApprovalDecision, ChatEvent } from '../../common/protocol';
import type { ApprovalRequest, AskApproval } from '../agent/types';

export interface ApprovalWaitsDeps {
  /** Records the card's question and the person's answer in the chat. */
  record: (event: ChatEvent) => void;
  /** A front end that asks in its own way (a terminal): its answer settles the approval too. */
  ask?: AskApproval;
  onShown?: (request: ApprovalRequest) => void;
  onSettled?: (request: ApprovalRequest) => void;
}

/**
 * The approvals a chat's turn waits for: each is a card in the chat (and the front end's own question, if it
 * has one) until the person answers, or until the turn ends, which is no answer at all: stopping the turn is
 * not denying the call, so nothing is recorded for the person then.
 */
export class ApprovalWaits {
  private readonly pending = new Map<string, (d: ApprovalDecision, decided?: boolean) => void>();
  /** Calls an MCP App's view asked for: they belong to no turn, so a turn's end does not answer them. */
  private readonly fromApp = new Set<string>();

  constructor(private readonly deps: ApprovalWaitsDeps) {}

  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve) => {
      /** `decided`: the person answered (recorded); else the turn ended first, and the card says there was no decision. */
      const settle = (decision: ApprovalDecision, decided = true): void => {
        if (!this.pending.delete(request.callId)) return;
        this.fromApp.delete(request.callId);
        signal.removeEventListener('abort', onAbort);
        this.deps.onSettled?.(request);
        if (decided) this.deps.record({ kind: 'approval', callId: request.callId, decision });
        resolve(decision);
      };
      const onAbort = (): void => settle('deny', false);
      this.pending.set(request.callId, settle);
      if (request.fromApp) this.fromApp.add(request.callId);
      signal.addEventListener('abort', onAbort, { once: true });
      this.deps.record({
        kind: 'approval_request',
        callId: request.callId,
        server: request.tool.server,
        tool: request.tool.tool.name,
        reason: request.reason,
        preview: request.preview,
        warnings: request.warnings,
        notes: request.notes,
        ...(request.summary ? { summary: request.summary } : {}),
        alwaysKind: request.alwaysKind,
        ...(request.hosts ? { hosts: request.hosts } : {}),
        ...(request.edit ? { review: true } : {}),
        ...(request.fromApp ? { fromApp: true } : {}),
      });
      this.deps.onShown?.(request);
      this.deps.ask?.(request, signal).then(settle, () => settle('deny'));
    });
  }

  /** The person's answer (unknown ids are ignored: the card may be stale). */
  answer(callId: string, decision: ApprovalDecision): void {
    this.pending.get(callId)?.(decision);
  }

  /** The turn ended: whatever of it still waits is refused, with no answer recorded (a view's calls wait on). */
  endTurn(): void {
    for (const [callId, settle] of [...this.pending]) if (!this.fromApp.has(callId)) settle('deny', false);
  }
}
