/**
 * The configured instance of a channel a request or a send is for. A plugin sees only the
 * source it is serving; read its settings with `handler.getSettings(source)`.
 * @example const { api_key } = this.getSettings(source);
 */
export interface ChannelSource {
  id: string;
  /** The unguessable reference in webhook URLs. */
  ref: string;
  /** Raw settings; parse them with the channel's schema. */
  settings: Record<string, unknown>;
  active: boolean;
}
