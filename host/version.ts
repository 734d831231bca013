import { readFileSync } from 'node:fs';

/** The host's version, from the root package.json. */
export const HOST_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
