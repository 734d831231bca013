import { z } from 'zod';

/** A client message id: the browser's own id of a message, so a frame sent twice is stored once. */
const clientMessageId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'id: 1–64 letters, digits, _ or -');

/**
 * The frames a chat client sends to the `web` channel (the host handles `hello` before them).
 * Loose objects: fields the host adds or a newer page sends are ignored.
 * @example webClientFrameSchema.parse({ type: 'message', id: 'm1', text: 'hello' })
 */
export const webClientFrameSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message'), id: clientMessageId, text: z.string().trim().min(1).max(4000) }),
  z.looseObject({
    type: z.literal('quick_reply'),
    id: clientMessageId,
    text: z.string().max(4000).optional(),
    payload: z.string().min(1).max(1000),
  }),
]);

export type WebClientFrame = z.infer<typeof webClientFrameSchema>;
