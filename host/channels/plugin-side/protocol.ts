/**
 * Everything that crosses between the host and a channel's workers, as plain data. One Piscina
 * task per call (the hot path); the worker→host services go over a Comlink port instead.
 */
import type { MessagePort } from 'node:worker_threads';
import type {
  ChannelCapabilities,
  ChannelSource,
  ConnectContext,
  ConnectResult,
  EgressRequest,
  EgressResponse,
  InboundAttachmentRef,
  PlainInboundEvent,
  PlainWebhookResponse,
  SendMessageOptions,
  SendMessageResult,
  StdOutgoingMessageEnvelope,
  SubscriberCreateDto,
  WebhookRequest,
  WebSocketFrame,
} from '@bot-ai/api';
import type { SerializedError } from './sandbox-error.ts';

/**
 * A webhook request as plain data, without `body`: the worker parses `rawBody` into it before
 * calling the plugin (parseWebhookBody), so a parsed copy never crosses the thread boundary.
 * `rawBody` is copied into a buffer of its own and transferred, so the worker gets the exact
 * bytes without a second copy.
 */
export type PlainWebhookRequest = Omit<WebhookRequest, 'body'>;

/** Host → worker tasks. `source` is only the source being served: a worker never sees others. */
export type SandboxRequest =
  | { type: 'channel.describe' }
  | { type: 'channel.verifyWebhook'; request: PlainWebhookRequest; source: ChannelSource }
  | { type: 'channel.receiveWebhook'; request: PlainWebhookRequest; source: ChannelSource }
  | { type: 'channel.receiveFrame'; frame: WebSocketFrame; source: ChannelSource }
  | {
      type: 'channel.send';
      event: PlainInboundEvent;
      source: ChannelSource;
      envelope: StdOutgoingMessageEnvelope;
      options: SendMessageOptions;
      /** Named in the worker's `sandbox.task.started` message, posted before the plugin is called. */
      taskId: string;
    }
  | { type: 'channel.subscriberData'; event: PlainInboundEvent; source: ChannelSource }
  | { type: 'channel.typing'; event: PlainInboundEvent; source: ChannelSource }
  | { type: 'channel.connect'; source: ChannelSource; context: ConnectContext }
  | { type: 'channel.messageAttachments'; event: PlainInboundEvent; source: ChannelSource };

export type SandboxRequestType = SandboxRequest['type'];

/** What a channel declares about itself; listed without running its handlers on the main thread. */
export interface ChannelDescription {
  kind: 'http' | 'websocket';
  name: string;
  settingsJsonSchema: Record<string, unknown>;
  capabilities: ChannelCapabilities;
  /** The handler overrides `connect()`: the panel offers to connect its sources to the platform. */
  connectable: boolean;
}

/**
 * verifySignature then decode, in one task. `reason` is for the logs only: a webhook answer must
 * reveal nothing of it.
 */
export type ReceiveWebhookResult =
  | { outcome: 'accepted'; events: PlainInboundEvent[]; response: PlainWebhookResponse }
  | { outcome: 'rejected'; status: 401; reason: SerializedError }
  | { outcome: 'invalid'; status: 400; reason: SerializedError };

/**
 * decodeFrame of a WebSocket channel, in one task. `invalid` is the plugin refusing the frame
 * (a payload rejection or a ZodError); its message may be shown to the client, which sent it.
 */
export type ReceiveFrameResult =
  | { outcome: 'accepted'; events: PlainInboundEvent[] }
  | { outcome: 'invalid'; reason: SerializedError };

/**
 * What a send task answers: an HTTP channel sent the message itself (`mid`); a WebSocket channel
 * only encoded it (`frame`), and the host delivers the frame to the socket it owns.
 */
export type SendTaskResult = SendMessageResult | { frame: string };

/** `SubscriberCreateDto` with its dates as ISO 8601 strings. */
export type PlainSubscriberData = Omit<SubscriberCreateDto, 'assignedAt' | 'lastvisit' | 'retainedFrom'> & {
  assignedAt: string | null;
  lastvisit: string;
  retainedFrom: string;
};

/** The value each task answers with. */
export interface SandboxResults {
  'channel.describe': ChannelDescription;
  'channel.verifyWebhook': PlainWebhookResponse;
  'channel.receiveWebhook': ReceiveWebhookResult;
  'channel.receiveFrame': ReceiveFrameResult;
  'channel.send': SendTaskResult;
  'channel.subscriberData': PlainSubscriberData;
  /** Nothing to answer; `null`, not `undefined`, so the reply keeps its `value` on the runner's JSON wire. */
  'channel.typing': null;
  'channel.connect': ConnectResult;
  'channel.messageAttachments': InboundAttachmentRef[];
}

/** Every answer; errors travel as data so their `code` survives. */
export type SandboxReply<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** What each worker of a pool starts with. */
export interface SandboxWorkerData {
  /** file URL of the `*.channel.js` to import. */
  fileUrl: string;
  /** Time limit of each worker → host service call. */
  hostCallTimeoutMs: number;
}

/**
 * The worker opens the channel to the host at start: Piscina treats any host → worker message
 * on `parentPort` as its own start-up message, so the port can only travel worker → host.
 */
export interface BridgeOpenMessage {
  type: 'sandbox.bridge.open';
  port: MessagePort;
}

/** Posted by each worker once its plugin is imported and checked (whatever the outcome). */
export interface WorkerLoadedMessage {
  type: 'sandbox.worker.loaded';
  threadId: number;
}

/**
 * Posted by a worker as it starts a send, before the plugin runs: a send that fails without it
 * never reached the plugin, so it may be sent again without any risk of a duplicate.
 */
export interface TaskStartedMessage {
  type: 'sandbox.task.started';
  taskId: string;
}

/** Worker → host messages on `parentPort` (Piscina re-emits them as the pool's `message` event). */
export type WorkerEventMessage = BridgeOpenMessage | WorkerLoadedMessage | TaskStartedMessage;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Host services a worker calls over Comlink; replies are data so errors keep their `code`. */
export interface HostBridge {
  getAttachmentPublicUrl(sourceId: string, attachmentRef: string): Promise<SandboxReply<string>>;
  /** The SDK's `fetch`, performed by the host under its egress rules. */
  fetch(request: EgressRequest): Promise<SandboxReply<EgressResponse>>;
  log(level: LogLevel, message: string, fields: Record<string, unknown>): void;
}
