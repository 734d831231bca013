import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ReplyHub } from './reply-hub.ts';
import { SessionTokens } from './session-tokens.ts';
import { WebChatStore } from './web-chat-store.ts';

/** The live chat parts the socket gateway and the channel sandboxes share. */
export interface WebChat {
  store: WebChatStore;
  /** Delivers WebSocket channels' replies; `start()` listens for other instances' replies. */
  hub: ReplyHub;
  tokens: SessionTokens;
}

export interface WebChatOptions {
  db: Knex;
  logger: Logger;
  now: () => Date;
  /** BOT_WEB_SESSION_SECRET; default a random one (tests: tokens then die with the process). */
  sessionSecret: string;
}

export function createWebChat({ db, logger, now, sessionSecret }: Omit<WebChatOptions, 'sessionSecret'> & Partial<WebChatOptions>): WebChat {
  const store = new WebChatStore(db);
  return {
    store,
    hub: new ReplyHub({ db, store, logger }),
    tokens: new SessionTokens({ secret: sessionSecret ?? randomBytes(32).toString('base64url'), now }),
  };
}
