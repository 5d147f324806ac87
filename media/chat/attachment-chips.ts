/**
 * The composer's attachments: a chip for each file, folder or selection picked with `@`, and for each image
 * pasted from the clipboard. Sent with the message: the paths as attachments, the pasted images themselves.
 */
import type { PastedImage } from '../../src/common/protocol';
import { h, icon, type IconName } from './dom';
import { basename } from './transcript-parts';
import { clipboardImages, imageRefusal, readImage } from './pasted-image';

const MAX_ATTACHMENTS = 50;
const MAX_PATH = 4096;

export class AttachmentChips {
  readonly el: HTMLElement;
  /** Pasted images by their chip's key; sent with the message, not as workspace paths. */
  private readonly images = new Map<string, PastedImage>();
  private pasted = 0;
  private readonly attachments = new Map<string, string>();

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** Says why something was not attached. */
    private readonly say: (text: string) => void,
    /** A chip was added. */
    private readonly added: () => void,
  ) {
    this.el = h('div', { class: 'attachments composer-attachments', attrs: { 'aria-label': 'Attachments' } });
    this.el.hidden = true;
  }

  get size(): number {
    return this.attachments.size;
  }

  attach(path: string, label: string, kind: IconName = 'file'): void {
    // The host would refuse the whole message over one of these, so they never get a chip.
    if (this.attachments.has(path) || this.attachments.size >= MAX_ATTACHMENTS || path.length > MAX_PATH) return;
    this.attachments.set(path, label);
    const remove = h('button', { class: 'chip-remove', attrs: { type: 'button', 'aria-label': `Remove ${label}`, title: 'Remove' } }, icon('close'));
    const chip = h(
      'span',
      { class: 'attachment-chip', attrs: { title: path, 'data-path': path } },
      icon(kind),
      h('span', { class: 'chip-label', text: label || basename(path) }),
      remove,
    );
    remove.addEventListener('click', () => {
      this.attachments.delete(path);
      this.images.delete(path);
      chip.remove();
      this.el.hidden = this.attachments.size === 0;
      this.input.focus();
    });
    this.el.append(chip);
    this.el.hidden = false;
    this.added();
  }

  /** Takes the last chip off (Backspace in an empty input). */
  removeLast(): void {
    this.el.lastElementChild?.querySelector<HTMLButtonElement>('.chip-remove')?.click();
  }

  /**
   * An image on the clipboard becomes a chip (the text, if any, is pasted as usual). Refused, with
   * why, past the API's 5 MB or 5 images a message, or in a type the API does not take.
   */
  paste(e: ClipboardEvent): void {
    const files = clipboardImages(e);
    if (files.length === 0) return;
    e.preventDefault();
    let held = this.images.size;
    for (const file of files) {
      const why = imageRefusal(file, held);
      if (why) {
        this.say(`Not attached: ${why}.`);
        continue;
      }
      held++;
      void readImage(file).then(
        (image) => {
          const key = `pasted:${++this.pasted}`;
          this.images.set(key, image);
          this.attach(key, `pasted image ${this.pasted}`, 'image');
        },
        (err: unknown) => this.say(`Not attached: ${err instanceof Error ? err.message : String(err)}.`),
      );
    }
  }

  /** What the message sends: the attached paths, and the pasted images themselves. */
  outgoing(): { attachments: string[]; images: PastedImage[] } {
    return { attachments: [...this.attachments.keys()].filter((k) => !this.images.has(k)), images: [...this.images.values()] };
  }

  /** Every chip gone, once the message was sent. */
  clear(): void {
    this.images.clear();
    this.attachments.clear();
    this.el.replaceChildren();
    this.el.hidden = true;
  }
}
