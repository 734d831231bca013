import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Context } from 'koa';
import type { RawRouteDefinition } from '../http/route-definition.ts';
import { z } from 'zod';
import type { SourceCache } from '../sources/source-cache.ts';

/** The channel whose sources get a chat page: the page renders the built-in `web` channel's frames. */
export const WEB_CHANNEL = 'web';

const TEMPLATE = readFileSync(new URL('./chat-page.html', import.meta.url), 'utf8');
const DEFAULT_TITLE = 'Chat';
const DEFAULT_WELCOME = 'Hi! Send a message to start.';

export interface ChatPageDeps {
  sources: Pick<SourceCache, 'get'>;
}

/**
 * `GET /chat/:sourceRef`: a self-contained chat page (HTML, CSS and script in one response, no
 * build step) that talks to `/api/ws/:sourceRef`. It keeps its session token and transcript in
 * localStorage, so a reload continues the conversation. Only for active `web` sources.
 */
export function chatPageRoutes(deps: ChatPageDeps): RawRouteDefinition[] {
  return [{
    method: 'GET', path: '/chat/:sourceRef', operationId: 'chatPage', tag: 'web-chat', permission: null,
    summary: "A `web` source's chat page, for subscribers; it talks to the chat socket",
    params: z.object({ sourceRef: z.string().describe("The web source's reference") }),
    responses: { 200: { description: 'The page', type: 'text/html' }, 404: { description: 'No active web source has this reference', type: 'text/html' } },
    answer: (ctx) => answerChatPage(ctx, deps),
  }];
}

async function answerChatPage(ctx: Context, deps: ChatPageDeps): Promise<void> {
  const source = await deps.sources.get(ctx.params.sourceRef!);
  if (!source || source.channel !== WEB_CHANNEL || !source.active) return notFound(ctx);
  const settings = source.settings as { title?: unknown; welcome_text?: unknown };
  const title = typeof settings.title === 'string' && settings.title !== '' ? settings.title : DEFAULT_TITLE;
  const welcomeText = typeof settings.welcome_text === 'string' ? settings.welcome_text : DEFAULT_WELCOME;
  const nonce = randomBytes(16).toString('base64');
  setPageHeaders(ctx, nonce);
  ctx.body = renderChatPage({ title, nonce, config: { sourceRef: source.ref, welcomeText } });
}

/** The page for one source; every value is escaped for where it lands (HTML text, a JSON script block). */
export function renderChatPage({ title, nonce, config }: { title: string; nonce: string; config: Record<string, unknown> }): string {
  return TEMPLATE.replaceAll('{{TITLE}}', escapeHtml(title))
    .replaceAll('{{NONCE}}', nonce)
    .replace('{{CONFIG}}', JSON.stringify(config).replaceAll('<', '\\u003c'));
}

function setPageHeaders(ctx: Context, nonce: string): void {
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // The Host header is the client's: named in the policy only when it is a plain host[:port].
  const sockets = /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(ctx.host) ? ` ws://${ctx.host} wss://${ctx.host}` : '';
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'${sockets}; img-src 'self' data:; base-uri 'none'; form-action 'none'`,
  );
}

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.type = 'html';
  ctx.body = '<!doctype html><meta charset="utf-8"><title>Not found</title><p>No chat here.</p>';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
