/** The host services a plugin may call; in a sandbox they cross to the host over a MessagePort. */
export interface HostServices {
  getAttachmentPublicUrl(sourceId: string, attachmentRef: string): Promise<string>;
}

let installed: HostServices | undefined;

/** Called by the host runtime (never by plugins) before any plugin code runs. */
export function installHostServices(services: HostServices): void {
  installed = services;
}

/**
 * Builds public URLs of outbound attachments: by default a signed, expiring download URL of the
 * host (`/api/webhook/:sourceRef/download/:name?t=…`).
 * @example const url = await channelAttachmentService.getPublicUrl(event.getSourceId(), 'invoice.pdf');
 */
export const channelAttachmentService = {
  getPublicUrl(sourceId: string, attachmentRef: string): Promise<string> {
    if (!installed) return Promise.reject(new Error('Host services are not available outside the bot host'));
    return installed.getAttachmentPublicUrl(sourceId, attachmentRef);
  },
};
