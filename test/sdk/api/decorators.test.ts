import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ExtensionInject, Injectable, applyExtensionInjections, isInjectable } from '@bot-ai/api';

class Encoder {
  readonly id = Math.random();
}

describe('Injectable', () => {
  test('marks a class in the experimentalDecorators calling convention', () => {
    class Legacy {}
    Injectable()(Legacy);
    assert.equal(isInjectable(Legacy), true);
  });

  test('marks a class in the standard decorators calling convention', () => {
    class Standard {}
    Injectable()(Standard, { kind: 'class', name: 'Standard' });
    assert.equal(isInjectable(Standard), true);
  });

  test('does not make a subclass injectable by inheritance', () => {
    class Base {}
    Injectable()(Base);
    class Sub extends Base {}
    assert.equal(isInjectable(Sub), false);
  });

  test("accepts a class marked by @nestjs/common's watermark", () => {
    class Nest {}
    const metadata = new Map<unknown, unknown>([[Nest, true]]);
    const reflect = Reflect as unknown as { getOwnMetadata?: unknown };
    reflect.getOwnMetadata = (key: string, target: unknown) => (key === '__injectable__' ? metadata.get(target) : undefined);
    try {
      assert.equal(isInjectable(Nest), true);
    } finally {
      delete reflect.getOwnMetadata;
    }
  });

  test('refuses non-classes', () => {
    assert.equal(isInjectable({}), false);
    assert.equal(isInjectable(undefined), false);
  });
});

describe('ExtensionInject', () => {
  test('injects one instance per handler in the experimentalDecorators convention', () => {
    class Handler {
      declare readonly encoder: Encoder;
    }
    ExtensionInject(Encoder)(Handler.prototype, 'encoder');
    const first = applyExtensionInjections(new Handler());
    const second = applyExtensionInjections(new Handler());
    assert.ok(first.encoder instanceof Encoder);
    assert.equal(first.encoder, first.encoder);
    assert.notEqual(first.encoder.id, second.encoder.id);
  });

  test('fills a field a compiler defined as undefined (class fields shadow the lazy property)', () => {
    class Handler {
      encoder: Encoder | undefined = undefined;
    }
    ExtensionInject(Encoder)(Handler.prototype, 'encoder');
    assert.ok(applyExtensionInjections(new Handler()).encoder instanceof Encoder);
  });

  test('returns a field initializer in the standard decorators convention', () => {
    const initializer = ExtensionInject(Encoder)(undefined, { kind: 'field', name: 'encoder' }) as () => Encoder;
    assert.ok(initializer() instanceof Encoder);
  });
});
