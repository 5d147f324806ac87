import type { JSONRPCMessage, Progress } from '@modelcontextprotocol/client';

type Token = string | number;

/**
 * The progress tokens of requests still waiting for their answer. Progress for any other token (a request we
 * cancelled or that timed out, whose server keeps reporting) is dropped here, quietly: the SDK would report
 * each one as an error and use up the connection's error log, hiding the errors that matter.
 * A request answered with a task (MCP 2025-11-25) keeps its token until the task ends: its progress goes on,
 * to whoever follows the task (the SDK forgets the token once the request is answered).
 */
export class ProgressTokens {
  /** Request id -> its progress token. */
  private readonly open = new Map<Token, Token>();
  private readonly live = new Set<Token>();
  /** Task id -> the token of the request that created it. */
  private readonly tasks = new Map<string, Token>();
  /** Token of a task's request -> who follows its progress. */
  private readonly followers = new Map<Token, (progress: Progress) => void>();
  dropped = 0;

  /** Hands the progress of a task's request to `onProgress` until the task ends or the returned function is called. */
  follow(taskId: string, onProgress: (progress: Progress) => void): () => void {
    const token = this.tasks.get(taskId);
    if (token === undefined) return () => undefined;
    this.followers.set(token, onProgress);
    return () => {
      if (this.followers.get(token) === onProgress) this.followers.delete(token);
    };
  }

  /** Notes what we send: a request that asks for progress opens its token, a cancel closes it. */
  sent(message: JSONRPCMessage): void {
    if ('method' in message && message.method === 'tasks/cancel') {
      this.endTask((message.params as { taskId?: unknown } | undefined)?.taskId);
    } else if ('method' in message && 'id' in message) {
      const token = (message.params as { _meta?: { progressToken?: Token } } | undefined)?._meta?.progressToken;
      if (token !== undefined) {
        this.open.set(message.id, token);
        this.live.add(token);
      }
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      this.close((message.params as { requestId?: Token } | undefined)?.requestId);
    }
  }

  /** False for progress nobody waits for; an answer to a request closes its token. */
  admit(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method === 'notifications/tasks/status') this.taskStatus(message.params);
      if (message.method !== 'notifications/progress') return true;
      const params = message.params as ({ progressToken?: Token } & Progress) | undefined;
      const token = params?.progressToken;
      const follower = token === undefined ? undefined : this.followers.get(token);
      if (follower && params) {
        follower({ progress: params.progress, total: params.total, message: params.message });
        return false;
      }
      if (token !== undefined && this.live.has(token)) return true;
      this.dropped++;
      return false;
    }
    if ('id' in message && message.id !== undefined) {
      const result = 'result' in message ? (message.result as { task?: { taskId?: unknown }; taskId?: unknown; status?: unknown }) : undefined;
      const created = result?.task?.taskId;
      const token = this.open.get(message.id);
      if (typeof created === 'string' && token !== undefined) {
        this.open.delete(message.id);
        this.tasks.set(created, token);
      } else {
        this.close(message.id);
      }
      // A tasks/get answer is the task itself.
      this.taskStatus(result);
    }
    return true;
  }

  private taskStatus(task: unknown): void {
    const { taskId, status } = (task ?? {}) as { taskId?: unknown; status?: unknown };
    if (status === 'completed' || status === 'failed' || status === 'cancelled') this.endTask(taskId);
  }

  private endTask(taskId: unknown): void {
    if (typeof taskId !== 'string') return;
    const token = this.tasks.get(taskId);
    if (token === undefined) return;
    this.tasks.delete(taskId);
    this.followers.delete(token);
    this.live.delete(token);
  }

  private close(requestId: Token | undefined): void {
    if (requestId === undefined) return;
    const token = this.open.get(requestId);
    if (token === undefined) return;
    this.open.delete(requestId);
    this.live.delete(token);
  }
}
