import pino, { type Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  pretty: boolean;
}

/**
 * JSON logs for machines, pretty ones on a terminal. Authorization headers, cookies, passwords and
 * secrets are redacted wherever they appear in a logged object.
 */
export function createLogger({ level, pretty }: LoggerOptions): Logger {
  return pino({
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
      ],
      censor: '[redacted]',
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  });
}
