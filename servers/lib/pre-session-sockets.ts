import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The connections that have not yet carried a request of a session: what anyone who can connect
 * costs the server before proving anything. Past `max` at once the oldest is closed, so a flood
 * of silent or slowly dripping connections cannot starve a client whose initialize arrives whole
 * (its connection is the newest), and costs a bounded number of sockets.
 */
export class PreSessionSockets {
  /** In the order they connected: the first is the oldest. */
  private readonly waiting = new Set<Socket>();
  private said = false;

  constructor(
    server: Server,
    private readonly max: number,
    private readonly log: (line: string) => void,
  ) {
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  /** The socket carried a request of a session (an existing one, or one it just opened): it no longer counts. */
  joined(socket: Socket): void {
    this.waiting.delete(socket);
  }

  private admit(socket: Socket): void {
    this.waiting.add(socket);
    socket.once('close', () => this.waiting.delete(socket));
    if (this.waiting.size <= this.max) return;
    const oldest = this.waiting.values().next().value as Socket;
    this.waiting.delete(oldest);
    oldest.destroy();
    if (this.said) return;
    // Once: a flood would otherwise flood stderr too.
    this.said = true;
    this.log(`more than ${this.max} connections without a session at once: closing the oldest of them (said once)`);
  }
}
