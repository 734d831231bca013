import type { ChannelSource } from '@bot-ai/api';

/**
 * Only the source's own fields leave the host for plugin code, whatever else its record carries.
 * @example sandbox.receiveWebhook(request, pickSource(sourceRecord));
 */
export function pickSource({ id, ref, settings, active }: ChannelSource): ChannelSource {
  return { id, ref, settings, active };
}
