// Chat pages for the webview tests: one harness per test file, every page closed after its test.
import { after, afterEach, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HostMessage } from '../../src/common/protocol';
import { repoRoot } from '../support/repo-root';
import { startHarness, type ChatPage, type Harness } from './webview-harness';
import { readyState } from './webview-conversation';

export interface ChatPages {
  openChat(options?: Parameters<Harness['open']>[0]): Promise<ChatPage>;
  /** A page that already has the ready state (a key, trusted, servers fine). */
  openReady(): Promise<ChatPage>;
  /** The way a reader scrolls up: the mouse wheel over the conversation. */
  scrollToTopByWheel(page: ChatPage['page']): Promise<void>;
  /** Where a screenshot for a person to look at goes. */
  screenshotPath(name: string): string;
}

/** Registers the hooks in the calling file and returns its page openers. */
export function useChatPages(): ChatPages {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });
  // A page left open by a failed test would sit in front of the next one and starve its frames.
  const open: ChatPage[] = [];
  afterEach(async () => {
    for (const chat of open.splice(0)) if (!chat.page.isClosed()) await chat.page.close();
  });
  const openChat = async (options?: Parameters<Harness['open']>[0]): Promise<ChatPage> => {
    const chat = await harness.open(options);
    open.push(chat);
    return chat;
  };
  return {
    openChat,
    openReady: async () => {
      const chat = await openChat();
      await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
      return chat;
    },
    scrollToTopByWheel: async (page) => {
      await page.locator('#scroller').hover();
      for (let i = 0; i < 100 && (await page.evaluate(() => document.getElementById('scroller')!.scrollTop > 0)); i++) await page.mouse.wheel(0, -400);
    },
    screenshotPath: (name) => {
      const dir = join(repoRoot(), '.test-artifacts', 'screenshots');
      mkdirSync(dir, { recursive: true });
      return join(dir, `webview-chat--${name}.png`);
    },
  };
}
