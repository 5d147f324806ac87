import type { PastedImage } from '../../src/common/protocol';
import { isImageMime } from '../../src/common/image-types';

/** The API's limits for images in one message. */
const MAX_IMAGES = 5;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Image files on a paste's clipboard (the text, if any, is pasted as usual). */
export function clipboardImages(e: ClipboardEvent): File[] {
  return Array.from(e.clipboardData?.items ?? [])
    .filter((i) => i.kind === 'file' && i.type.startsWith('image/'))
    .map((i) => i.getAsFile())
    .filter((f): f is File => f !== null);
}

/** Why a pasted image cannot go with the message (`held` already do), or undefined when it can. */
export function imageRefusal(file: File, held: number): string | undefined {
  if (!isImageMime(file.type)) return `a ${file.type} image cannot be sent (PNG, JPEG, GIF or WebP can)`;
  if (file.size > MAX_IMAGE_BYTES) return `the image is ${(file.size / 1024 / 1024).toFixed(1)} MB; the limit is 5 MB`;
  if (held >= MAX_IMAGES) return `at most ${MAX_IMAGES} images go with one message`;
  return undefined;
}

/** The image as the API takes it: its type and base64 data. */
export function readImage(file: File): Promise<PastedImage> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ mimeType: file.type as PastedImage['mimeType'], data: String(reader.result).replace(/^data:[^,]*,/, '') });
    reader.onerror = () => reject(reader.error ?? new Error('the image could not be read'));
    reader.readAsDataURL(file);
  });
}
