import type { Locator } from 'playwright-core';

/**
 * The element's text as a person sees it. The chat skips laying out messages off the screen
 * (`content-visibility: auto`), and until the first frame after a message is added Chrome has not yet decided that
 * it is on the screen: its `innerText` is '' then, though the person never sees it empty. So wait for the frames
 * that decide it (a bounded number: a message that really is off the screen stays skipped, and its '' is the answer).
 */
export async function shownText(locator: Locator): Promise<string> {
  return locator.evaluate(async (el: HTMLElement) => {
    const skipped = (): boolean => el.checkVisibility() && !el.checkVisibility({ contentVisibilityAuto: true });
    for (let frame = 0; frame < 60 && skipped(); frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    return el.innerText;
  });
}
