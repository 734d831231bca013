import type { RawRouteDefinition } from '../http/route-definition.ts';

/**
 * The page behind the one-time link `npm start` prints: it reads the code from the URL fragment
 * (fragments never reach servers or proxy logs), redeems it, keeps the token in this browser
 * (`localStorage['bot.token']`, where the admin panel reads it) and opens the panel at `/`.
 * It works without the panel's build; a used or expired link points to the panel's token form.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>bot host: sign in</title>
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{word-break:break-all}</style>
</head><body><h1>bot host</h1><p id="status">Signing in…</p><p id="form" hidden><a href="/sign-in">Sign in with a token</a></p>
<script>
(async () => {
  const status = document.getElementById('status');
  const code = new URLSearchParams(location.hash.slice(1)).get('code');
  history.replaceState(null, '', location.pathname);
  if (!code) { status.textContent = 'This link has no login code.'; document.getElementById('form').hidden = false; return; }
  const response = await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  const body = await response.json();
  if (!response.ok) { status.textContent = body.error.message; document.getElementById('form').hidden = false; return; }
  localStorage.setItem('bot.token', body.token);
  status.textContent = 'Signed in as ' + body.sub + ' (' + body.role + '). Opening the admin panel…';
  location.replace('/');
})();
</script></body></html>`;

export function loginPageRoutes(): RawRouteDefinition[] {
  return [{
    method: 'GET', path: '/login', operationId: 'loginPage', tag: 'auth', permission: null,
    summary: 'The page behind the one-time login link: it redeems the code in the URL fragment and opens the admin panel',
    responses: { 200: { description: 'The page', type: 'text/html' } },
    answer(ctx) {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.body = PAGE;
    },
  }];
}
