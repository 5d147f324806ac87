import * as z from 'zod';

/** The raster types the Messages API takes as images, and so the ones the chat draws, sends and opens. */
const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMime = (typeof IMAGE_MIME_TYPES)[number];
export const imageMimeSchema = z.enum(IMAGE_MIME_TYPES);

export function isImageMime(type: string | undefined): type is ImageMime {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(type ?? '');
}

/** An image's bytes as base64, at most the 5 MiB the API takes (7 MB of base64), as the chat keeps and sends them. */
export const imageDataSchema = z
  .string()
  .max(7_000_000)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** An image pasted into the chat's input, as it is sent with the message. */
export const pastedImageSchema = z.object({ mimeType: imageMimeSchema, data: imageDataSchema });
export type PastedImage = z.infer<typeof pastedImageSchema>;
