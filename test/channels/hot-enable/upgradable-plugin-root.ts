import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createPluginRoot, writeChannelPackage } from '../../support/temp-plugin-root.ts';

/**
 * A throw-away app root holding `bot-channel-<name>` packages written on the fly, so a test can
 * install, upgrade and remove a channel on disk while the host runs. The SDK resolves from this
 * repository's own install.
 */
export class UpgradablePluginRoot {
  private constructor(readonly dir: string) {}

  static async create(): Promise<UpgradablePluginRoot> {
    return new UpgradablePluginRoot(await createPluginRoot('bot-plugin-root-'));
  }

  /**
   * Writes version `version` of channel `name`: its decode turns `{ id, text }` into one text
   * event whose text is prefixed with the version, and waits `x-delay-ms` first, so a test can
   * keep requests in flight across a switch and tell which version served each one.
   */
  async install(name: string, version: string): Promise<void> {
    await writeChannelPackage(this.dir, name, upgradableChannelSource(name, version), version);
  }

  async remove(name: string): Promise<void> {
    await rm(path.join(this.dir, 'node_modules', `bot-channel-${name}`), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** The channel file of version `version` of `name`: its decode prefixes each text with the version. */
export function upgradableChannelSource(name: string, version: string): string {
  return `import { setTimeout as sleep } from 'node:timers/promises';
import { HttpChannelHandler, Injectable, MessageInboundEvent, z } from '@bot-ai/api';

const VERSION = ${JSON.stringify(version)};

class UpgradableChannel extends HttpChannelHandler {
  constructor() {
    super(${JSON.stringify(name)}, z.object({}));
  }

  async decode(req) {
    const delayMs = Number(req.headers['x-delay-ms'] ?? 0);
    if (delayMs > 0) await sleep(delayMs);
    const { id, text } = req.body;
    const context = { channelName: ${JSON.stringify(name)}, rawEvent: req.body, channelAttributes: {}, occurredAt: new Date(), eventId: id, senderForeignId: 'u1' };
    return [new MessageInboundEvent(context, { type: 'text', data: { text: VERSION + ':' + text } })];
  }

  async doSendMessage() {
    return { mid: 'm1' };
  }

  getSubscriberData() {
    throw new Error('not used');
  }
}
Injectable()(UpgradableChannel);
export default UpgradableChannel;
`;
}
