/**
 * Why discovery refused a channel file, with a stable `BOT_ERR_PLUGIN_*` code of the error table
 * (host/errors/plugin-error-codes.ts).
 */
export class PluginRejection extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PluginRejection';
  }
}
