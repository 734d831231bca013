import { SAMPLE_PLATFORM_DEFAULT_URL } from './seed/sample-demo-source.ts';

/** Where `npm run sample:send` posts unless given `--url`. */
const DEFAULT_HOST_URL = 'http://127.0.0.1:3000';

/**
 * On the embedded default, once the sample source is seeded: prints the two commands that make
 * it answer (a local platform, then a signed event), with `--port`/`--url` only where this host
 * or the source differs from the defaults the scripts assume. Nothing when the source sends
 * somewhere other than this machine: the operator pointed it at a real platform.
 */
export function printSampleCommands(publicUrl: string, apiUrl: string): void {
  const platform = new URL(apiUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(platform.hostname)) return;
  const port = platform.port === new URL(SAMPLE_PLATFORM_DEFAULT_URL).port ? '' : ` -- --port ${platform.port || 80}`;
  const url = publicUrl.replace(/\/+$/, '') === DEFAULT_HOST_URL ? '' : ` --url ${publicUrl}`;
  process.stdout.write(
    '  Try the sample channel, each command in a terminal of its own:\n' +
      `    npm run sample:platform${port}\n` +
      `    npm run sample:send -- "my name is Ada"${url}\n\n`,
  );
}
