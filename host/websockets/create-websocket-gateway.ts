import type { Services } from '../services.ts';
import { WebSocketGateway, type WebSocketGatewayOptions } from './websocket-gateway.ts';

/** Frames per second a chat socket may send on average, and in one burst. */
export const DEFAULT_FRAME_RATE = { perSecond: 5, burst: 20 };

/**
 * The socket gateway over the host's services; main attaches it to the HTTP server after
 * `services.webChat.hub.start()`.
 * @example createWebSocketGateway(services).attach(server);
 */
export function createWebSocketGateway(services: Services, options: Partial<Pick<WebSocketGatewayOptions, 'maxFrameBytes' | 'pingIntervalMs' | 'rateLimit'>> = {}): WebSocketGateway {
  return new WebSocketGateway({
    sources: services.sourceCache,
    channels: services.channels,
    inbox: services.inbox,
    ...services.webChat,
    logger: services.logger.child({ component: 'websockets' }),
    rateLimit: DEFAULT_FRAME_RATE,
    ...options,
  });
}
