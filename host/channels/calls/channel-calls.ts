import type {
  ChannelSource,
  ConnectContext,
  ConnectResult,
  InboundAttachmentRef,
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
  /** An HTTP channel's typing indicator for the subscriber of `event`; the host fires it and never waits. */
  typing(event: PlainInboundEvent, source: ChannelSource): Promise<void>;
  /** An HTTP channel's connect step for `source` (the panel offers it when the description says `connectable`). */
  connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult>;
  /** Where to download the files of an inbound attachment message of an HTTP channel, validated, in order. */
  messageAttachments(event: PlainInboundEvent, source: ChannelSource): Promise<InboundAttachmentRef[]>;
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
