import { EXTENSION_INJECTIONS } from '../brands.ts';

type Constructor<T> = new () => T;
type InjectionMap = Map<string | symbol, Constructor<unknown>>;

/**
 * Injects one of the plugin's own helpers (an encoder, a decoder) into a handler field: one
 * instance per handler, created with `new`. Works with both decorator modes; with
 * `experimentalDecorators`, declare the field with `declare` so no class field shadows it.
 * @example
 * @ExtensionInject(SampleEncoder) declare readonly encoder: SampleEncoder;   // experimentalDecorators
 * @ExtensionInject(SampleEncoder) readonly encoder!: SampleEncoder;          // standard decorators
 */
export function ExtensionInject<T>(type: Constructor<T>) {
  return (target: object | undefined, context: string | symbol | { kind: string; name: string | symbol }): any => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (typeof context === 'object') {
      // Standard field decorator: the returned initializer gives the field its value.
      return () => new type();
    }
    recordInjection(target!.constructor, context, type);
    defineLazyProperty(target!, context, type);
  };
}

/**
 * Fills injected fields still empty after construction (a class field emitted by the compiler
 * can shadow the lazy property). The host calls it after constructing a handler; plugin tests
 * that construct handlers directly may call it too.
 * @example const handler = applyExtensionInjections(new SampleChannel());
 */
export function applyExtensionInjections<T extends object>(instance: T): T {
  const injections = (instance.constructor as { [EXTENSION_INJECTIONS]?: InjectionMap })[EXTENSION_INJECTIONS];
  for (const [key, type] of injections ?? []) {
    if ((instance as Record<string | symbol, unknown>)[key] === undefined) {
      Object.defineProperty(instance, key, { value: new type(), enumerable: true });
    }
  }
  return instance;
}

function recordInjection(owner: object, key: string | symbol, type: Constructor<unknown>): void {
  const holder = owner as { [EXTENSION_INJECTIONS]?: InjectionMap };
  if (!Object.prototype.hasOwnProperty.call(holder, EXTENSION_INJECTIONS)) {
    Object.defineProperty(holder, EXTENSION_INJECTIONS, { value: new Map(holder[EXTENSION_INJECTIONS] ?? []) });
  }
  holder[EXTENSION_INJECTIONS]!.set(key, type);
}

function defineLazyProperty(prototype: object, key: string | symbol, type: Constructor<unknown>): void {
  Object.defineProperty(prototype, key, {
    configurable: true,
    get(this: object) {
      const value = new type();
      Object.defineProperty(this, key, { value, enumerable: true });
      return value;
    },
  });
}
