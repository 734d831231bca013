import { installedHostServices } from './host-services.ts';

export { installHostServices, type HostServices } from './host-services.ts';

/**
 * Builds public URLs of outbound attachments: by default a signed, expiring download URL of the
 * host (`/api/webhook/:sourceRef/download/:name?t=…`).
 * @example const url = await channelAttachmentService.getPublicUrl(event.getSourceId(), 'invoice.pdf');
 */
export const channelAttachmentService = {
  getPublicUrl(sourceId: string, attachmentRef: string): Promise<string> {
    const services = installedHostServices();
    if (!services) return Promise.reject(new Error('Host services are not available outside the bot host'));
    return services.getAttachmentPublicUrl(sourceId, attachmentRef);
  },
};
