import pino, { type DestinationStream, type Logger, type LoggerOptions as PinoOptions } from 'pino';

export interface LoggerOptions {
  level: string;
  pretty: boolean;
}

/**
 * JSON logs for machines, pretty ones on a terminal. Authorization headers, cookies, passwords and
 * secrets are redacted wherever they appear in a logged object.
 * @example createLogger({ level: 'info', pretty: false }).info({ port }, 'listening');
 */
export function createLogger({ level, pretty }: LoggerOptions, destination?: DestinationStream): Logger {
  const options: PinoOptions = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.secret',
        '*.token',
        '*.api_key',
        '*.webhook_secret',
        '*.verify_token',
      ],
      censor: '[redacted]',
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  };
  // Pretty output is for terminals only. A destination (tests read what is logged) replaces stdout,
  // which is written as lines are logged: with pino's default (asynchronous) stdout, the write in
  // flight when the host exits could land after the lines flushed at exit, so a shutdown's last
  // lines came out of order, and a crash could lose its last lines. The host logs little at info,
  // nothing per request.
  if (pretty) return pino(options);
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}
