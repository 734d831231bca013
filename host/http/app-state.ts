import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';

/** What middleware puts on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the auth middleware on protected routes. */
  principal?: Principal;
  /** Parsed JSON body, set by the body parser on routes that take one. */
  body?: unknown;
}
