import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHANNEL_HANDLER_KIND, HttpChannelHandler, WebSocketChannelHandler, z, type ConnectResult } from '@bot-ai/api';
import { isConnectable } from '../../../host/channels/plugin-side/is-connectable.ts';

abstract class Base extends HttpChannelHandler {
  constructor() {
    super('probe', z.object({}));
  }
  decode() {
    return [];
  }
  async doSendMessage() {
    return { mid: 'm' };
  }
  getSubscriberData(): never {
    throw new Error('not used');
  }
}

const CONNECTED: ConnectResult = { connected: true, message: 'ok' };

test('a handler that keeps the SDK default has no connect step', () => {
  class Plain extends Base {}
  assert.equal(isConnectable(new Plain()), false);
});

test('an override anywhere below the SDK base counts: the class, a helper class between, or the instance', () => {
  class Own extends Base {
    override async connect() {
      return CONNECTED;
    }
  }
  class Below extends Own {}
  class Assigned extends Base {
    constructor() {
      super();
      this.connect = async () => CONNECTED;
    }
  }
  assert.equal(isConnectable(new Own()), true);
  assert.equal(isConnectable(new Below()), true, 'inherited from a helper class');
  assert.equal(isConnectable(new Assigned()), true);
});

test("the SDK base is found by its brand, so a plugin's own copy of the SDK is not mistaken for an override", () => {
  // What a second copy of the SDK looks like from here: another base class, with its own brand and default.
  class OtherCopyBase {
    static readonly [CHANNEL_HANDLER_KIND] = 'http';
    connect(): Promise<ConnectResult> {
      return Promise.reject(new Error('unsupported'));
    }
  }
  class Plugin extends OtherCopyBase {}
  assert.equal(isConnectable(new Plugin()), false);
});

test('a WebSocket handler has no connect step', () => {
  class Socket extends WebSocketChannelHandler {
    constructor() {
      super('socket', z.object({}));
    }
    decodeFrame() {
      return [];
    }
    encodeEnvelope() {
      return '';
    }
    getSubscriberData(): never {
      throw new Error('not used');
    }
  }
  assert.equal(isConnectable(new Socket()), false);
});
