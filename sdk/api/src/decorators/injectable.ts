import { INJECTABLE } from '../brands.ts';

/**
 * Marks a channel handler class as injectable, which discovery requires of the default export.
 * Works with both TypeScript decorator modes (`experimentalDecorators` and standard decorators).
 * A class marked with `@nestjs/common`'s `Injectable()` is accepted too.
 * @example
 * @Injectable()
 * export default class MyChannel extends HttpChannelHandler<typeof settings> { … }
 */
export function Injectable(): (target: abstract new (...args: never[]) => unknown, context?: unknown) => void {
  return (target) => {
    Object.defineProperty(target, INJECTABLE, { value: true });
  };
}

const NEST_INJECTABLE_WATERMARK = '__injectable__';

/** True when the class itself (not only a parent) is marked by our or Nest's `Injectable()`. */
export function isInjectable(target: unknown): boolean {
  if (typeof target !== 'function') return false;
  if (Object.prototype.hasOwnProperty.call(target, INJECTABLE)) return true;
  const reflect = Reflect as unknown as { getOwnMetadata?: (key: string, target: unknown) => unknown };
  return reflect.getOwnMetadata?.(NEST_INJECTABLE_WATERMARK, target) === true;
}
