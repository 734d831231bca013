import type { LogLevel } from '../plugin-side/protocol.ts';

/** The logger calls a channel's runner or thread pool makes on the host; a pino logger fits. */
export type SandboxLogger = Record<LogLevel, (fields: Record<string, unknown>, message: string) => void>;
