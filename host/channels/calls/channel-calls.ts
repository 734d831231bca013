import type {
  ChannelSource,
  PlainInboundEvent,
  PlainWebhookResponse,
  SendMessageOptions,
  SendMessageResult,
  StdOutgoingMessageEnvelope,
  WebhookRequest,
  WebSocketFrame,
} from '@bot-ai/api';
import type { ChannelDescription, PlainSubscriberData, PlainWebhookRequest, ReceiveFrameResult, ReceiveWebhookResult } from '../plugin-side/protocol.ts';

/**
 * The calls the host makes into a channel, whatever runs it: a runner process in its sandbox
 * (ChannelRunner, every package and local channel) or worker threads of the host (BuiltinChannelPool,
 * the SDK's trusted built-in channels). Each rejects with an error whose `code` says what failed.
 */
export interface ChannelCalls {
  describe(): Promise<ChannelDescription>;
  verifyWebhook(req: PlainWebhookRequest | WebhookRequest, source: ChannelSource): Promise<PlainWebhookResponse>;
  receiveWebhook(req: PlainWebhookRequest | WebhookRequest, source: ChannelSource): Promise<ReceiveWebhookResult>;
  receiveFrame(frame: WebSocketFrame, source: ChannelSource): Promise<ReceiveFrameResult>;
  send(event: PlainInboundEvent, source: ChannelSource, envelope: StdOutgoingMessageEnvelope, options: SendMessageOptions): Promise<SendMessageResult>;
  subscriberData(event: PlainInboundEvent, source: ChannelSource): Promise<PlainSubscriberData>;
  close(): Promise<void>;
}

/** How a channel is isolated, as diagnostics show it. */
export type IsolationKind = 'sandbox' | 'reduced' | 'builtin';

/** A running channel's isolation and runner state, for diagnostics. */
export interface ChannelRuntimeStatus {
  isolation: IsolationKind;
  /** Why the isolation is `reduced`. */
  isolationReason: string | undefined;
  /** The layers of a runner's isolation (`bubblewrap, seccomp; landlock: …`); none for a built-in channel. */
  isolationDetail: string | undefined;
  /** Whether the runner's processes are under the seccomp filter, read from /proc; undefined when none is there to read. */
  seccomp: boolean | undefined;
  state: 'starting' | 'running' | 'restarting' | 'closed';
  /** The runner process (bubblewrap's, when sandboxed); none for a built-in channel. */
  pid: number | undefined;
  restarts: number;
  lastExit: { reason: string; at: string } | undefined;
}
