import { z } from 'zod';
import type { ErrorCode } from '../errors/error-codes.ts';

/** WebSocket close codes the host uses (4000–4999 are the application's). */
export const CLOSE_CODES = {
  /** The host is shutting down: reconnect (to another instance) later. */
  goingAway: 1001,
  /** The session could not be opened (database down): reconnect later. */
  internalError: 1011,
  /** The session token is invalid, tampered with, expired or of another source: drop it and connect anew. */
  sessionInvalid: 4401,
  /** The source was deactivated while the socket was open. */
  sourceInactive: 4403,
  /** The source was deleted while the socket was open. */
  sourceUnknown: 4404,
} as const;

/** The first frame a client sends: its session token (absent the first time) and the last reply seq it saw. */
export const helloFrameSchema = z.object({
  type: z.literal('hello'),
  token: z.string().max(2048).optional(),
  lastSeq: z.number().int().nonnegative().optional(),
});

/** Every frame the host writes, as data; `reply` frames are built by the ReplyHub. */
export type ServerFrame =
  | { type: 'session'; sessionId: string; token: string; resumed: boolean; lastSeq: number }
  | { type: 'ack'; id: string | undefined; duplicate: boolean }
  | { type: 'typing'; on: boolean }
  | { type: 'error'; code: ErrorCode; message: string; id?: string | undefined };

/** The parsed JSON of a client frame, or undefined when it is not JSON. */
export function parseClientFrame(data: string): { value: unknown; id: string | undefined } | undefined {
  try {
    const value: unknown = JSON.parse(data);
    const id = (value as { id?: unknown } | null)?.id;
    return { value, id: typeof id === 'string' ? id : undefined };
  } catch {
    return undefined;
  }
}
