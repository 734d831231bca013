import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CHANNEL_HANDLER_KIND,
  ChannelOutboundMessageEncoder,
  DEFAULT_CHANNEL_CAPABILITIES,
  HttpChannelHandler,
  UnsupportedOutgoingFormatError,
  WebSocketChannelHandler,
  WebhookResponse,
  z,
  type StdOutgoingMessageEnvelope,
} from '@bot-ai/api';

const settings = z.object({ api_url: z.url().default('https://platform.example/api'), api_key: z.string().default('') });

class Minimal extends HttpChannelHandler<typeof settings> {
  constructor() {
    super('minimal', settings);
  }
  decode() {
    return [];
  }
  async doSendMessage() {
    return { mid: 'm1' };
  }
  getSubscriberData(): never {
    throw new Error('unused');
  }
}

describe('HttpChannelHandler', () => {
  test('is branded as an http handler, WebSocketChannelHandler as websocket', () => {
    assert.equal((Minimal as unknown as Record<symbol, unknown>)[CHANNEL_HANDLER_KIND], 'http');
    assert.equal((WebSocketChannelHandler as unknown as Record<symbol, unknown>)[CHANNEL_HANDLER_KIND], 'websocket');
  });

  test('parses source settings with the schema, applying defaults to absent settings', () => {
    const handler = new Minimal();
    assert.deepEqual(handler.getSettings({ id: 's', ref: 'r', settings: {}, active: true }), {
      api_url: 'https://platform.example/api',
      api_key: '',
    });
  });

  test('reports stored settings that fail the schema as a ChannelError, not a payload error', () => {
    const handler = new Minimal();
    assert.throws(
      () => handler.getSettings({ id: 's', ref: 'r', settings: { api_url: 'not a url' }, active: true }),
      (error: unknown) => (error as { code?: string }).code === 'BOT_ERR_CHANNEL_SETTINGS_INVALID' && (error as Error).name === 'ChannelError',
    );
  });

  test('defaults to text-only capabilities and a 200 ok handshake', async () => {
    const handler = new Minimal();
    assert.deepEqual(handler.getCapabilities(), DEFAULT_CHANNEL_CAPABILITIES);
    const res = new WebhookResponse();
    await handler.verifyWebhook({} as never, res, {} as never);
    assert.deepEqual(res.toPlain(), { statusCode: 200, body: 'ok', headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });
});

describe('ChannelOutboundMessageEncoder', () => {
  class TextOnly extends ChannelOutboundMessageEncoder<string> {
    protected encodeText(envelope: { data: { text: string } }) {
      return `text:${envelope.data.text}`;
    }
    protected encodeQuickReply = this.unsupported;
    protected encodeButtons = this.unsupported;
    protected encodeAttachment = this.unsupported;
    protected encodeList = this.unsupported;
    protected encodeCarousel = this.unsupported;
  }

  test('dispatches each envelope to the method of its type', () => {
    assert.equal(new TextOnly().dispatchEnvelope({ type: 'text', data: { text: 'hi' } }), 'text:hi');
  });

  test('throws UnsupportedOutgoingFormatError with a stable code for unsupported types', () => {
    const envelope: StdOutgoingMessageEnvelope = { type: 'list', data: { elements: [{ title: 'a' }] } };
    assert.throws(() => new TextOnly().dispatchEnvelope(envelope), (error: unknown) => {
      assert.ok(error instanceof UnsupportedOutgoingFormatError);
      assert.equal(error.code, 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT');
      return true;
    });
  });
});
