/**
 * `npm run sample:platform [-- --port <port>] [--api-key <key>]`: a local stand-in for the
 * sample platform, so the seeded sample source has somewhere to send its replies. Each reply it
 * receives is printed on one line. The port defaults to BOT_SAMPLE_PLATFORM_URL's (the variable
 * the host's seed reads, so one setting points both), else 4100.
 */
import { parseArgs } from 'node:util';
import { SAMPLE_PLATFORM_DEFAULT_URL } from '../host/seed/sample-demo-source.ts';
import { createSamplePlatformServer } from './sample/sample-platform-server.ts';
import { readOptionsOrExit } from './sample/read-options-or-exit.ts';

const USAGE = 'usage: npm run sample:platform -- [--port <port>] [--api-key <key>]';
const HOST = '127.0.0.1';

function defaultPort(): string {
  return new URL(process.env.BOT_SAMPLE_PLATFORM_URL || SAMPLE_PLATFORM_DEFAULT_URL).port || '80';
}

function readOptions(): { port: number; apiKey?: string } {
  const { values } = parseArgs({ options: { port: { type: 'string', default: defaultPort() }, 'api-key': { type: 'string' } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${values.port}"`);
  return { port, apiKey: values['api-key'] };
}

const options = readOptionsOrExit(readOptions, USAGE);

const server = createSamplePlatformServer({ apiKey: options.apiKey, print: (line) => console.log(line) });
server.on('error', (error: NodeJS.ErrnoException) => {
  const hint = error.code === 'EADDRINUSE' ? ` (port ${options.port} is taken: is another sample platform running? or pass --port)` : '';
  console.error(`sample platform could not listen on ${HOST}:${options.port}: ${error.message}${hint}`);
  process.exit(1);
});
server.listen(options.port, HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const auth = options.apiKey === undefined ? 'any Authorization accepted' : 'Authorization: Bearer <--api-key> required';
  console.log(`sample platform listening on http://${HOST}:${port} (POST /messages; ${auth}); replies print below, Ctrl-C stops`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
