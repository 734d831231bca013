import type { ChannelPackageManifest as HostChannelPackageManifest } from '../../../channels/packages/channel-package-manifest.ts';
import type { StepError } from '../../../workflows/runtime/describe-step-error.ts';

/** The admin API's shapes the panel reads (see /api/openapi.json). */
export interface Page<T> {
  items: T[];
  total: number;
}

export type MemoryScope = 'global' | 'workflow' | 'thread' | 'run';

export interface MemoryDefinition {
  id: string;
  name: string;
  slug: string;
  scope: MemoryScope;
  ttlSeconds: number | null;
  schema: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface SlugCheck {
  slug: string;
  valid: boolean;
  available: boolean;
}

export interface Channel {
  name: string;
  kind: 'http' | 'websocket';
  settingsSchema: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  /** Its handler has a connect step: the source page offers "Connect to <channel>". */
  connectable: boolean;
  enabled: boolean;
  running: boolean;
  /** How its code is isolated while it runs (null when not running). */
  isolation: 'sandbox' | 'reduced' | 'builtin' | null;
  origin: 'builtin' | 'package' | 'local';
  package: { name: string; version: string } | null;
  error: { code: string; message: string } | null;
}

/** `POST /api/sources/:id/connect`: what the channel's connect step says. */
export interface ConnectResult {
  connected: boolean;
  message: string;
  /** Text to copy to the platform's side (an app manifest). */
  instructions?: string;
}

export interface ChannelDiagnostic {
  file: string;
  package: { name: string; version: string } | null;
  name: string | null;
  status: 'registered' | 'disabled' | 'rejected';
  code: string | null;
  message: string | null;
}

export interface RescanReport {
  added: string[];
  removed: string[];
  upgraded: { name: string; from: string; to: string }[];
  rejected: { file: string; code: string | null; message: string | null }[];
}

/** How far something vouches for a package's tarball. */
export type ChannelPackageTrust = 'verified' | 'unsigned' | 'pinned' | 'unverified';

/** What a channel package's package.json says, as the host read it from the tarball (the API sends a missing description as null). */
export type ChannelPackageManifest = Omit<HostChannelPackageManifest, 'description'> & { description: string | null };

/** A channel package the host installed. */
export interface ChannelPackage {
  name: string;
  version: string;
  /** sha512 of the tarball (SRI). */
  integrity: string;
  trust: ChannelPackageTrust;
  manifest: ChannelPackageManifest;
  installedBy: string;
  installedAt: string;
  /** The version a rollback returns to; null when it replaced none. */
  previousVersion: string | null;
}

/** What this instance could not apply of the installed set. */
export interface ChannelPackageFailure {
  name: string;
  version: string;
  code: string;
  message: string;
}

/** `GET /api/channel/packages`. */
export interface ChannelPackageList extends Page<ChannelPackage> {
  /** BOT_CHANNEL_INSTALL. */
  policy: 'off' | 'registry' | 'any';
  /** The set is declared in BOT_CHANNELS_FILE: it changes with the file only. */
  declarative: boolean;
  failures: ChannelPackageFailure[];
}

/** `POST /api/channel/packages/preview`: what would be installed, fetched and checked. */
export interface ChannelPackagePreview {
  name: string;
  version: string;
  integrity: string;
  trust: ChannelPackageTrust;
  publishedAt: string | null;
  manifest: ChannelPackageManifest;
}

/** `POST /api/channel/packages`: the package, and what discovery made of its channel here. */
export interface ChannelPackageInstall {
  package: ChannelPackage;
  channel: { status: 'registered' | 'disabled' | 'rejected' | 'missing'; name: string | null; code: string | null; message: string | null };
}

/** One install, upgrade or removal; `outcome` is `ok` or the code that refused it. */
export interface ChannelPackageAuditEntry {
  at: string;
  actor: string;
  action: 'install' | 'upgrade' | 'remove';
  name: string;
  version: string | null;
  integrity: string | null;
  outcome: string;
  message: string | null;
}

export interface Source {
  id: string;
  ref: string;
  name: string;
  channel: string;
  settings: Record<string, unknown>;
  active: boolean;
  defaultWorkflowId: string | null;
  /** Null for a WebSocket channel: it takes no webhooks. */
  webhookUrl: string | null;
  /** The chat page of a web source; null for other channels. */
  chatUrl: string | null;
  /** The origins its channel's fetch may reach: its `x-egress` settings an operator saved while they were marked. */
  egressOrigins: string[];
  createdAt: string;
  updatedAt: string;
}

export interface WorkflowSummary {
  id: string;
  name: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface Workflow extends WorkflowSummary {
  currentVersion: number;
  yaml: string;
}

export interface WorkflowVersion {
  version: number;
  createdAt: string;
  createdBy: string | null;
}

export interface WorkflowProblem {
  path: string;
  line?: number;
  column?: number;
  code: string;
  message: string;
  /** For an expression: the character in the text after "=" (the column points at it). */
  position?: number;
}

/** A failed step's or run's error, as the server describes it. */
export type { StepError };

export interface RunStep {
  position: number;
  task: string;
  action: string;
  status: 'succeeded' | 'failed';
  reused: boolean;
  inputs: Record<string, unknown> | null;
  output: unknown;
  error: StepError | null;
  /** The way each conditional of the inputs went; `input` is its path under `inputs`, `index` its rank by its `?`. */
  branches?: BranchTaken[];
  startedAt: string;
  finishedAt: string;
}

export interface BranchTaken {
  input: string;
  index: number;
  took: 'then' | 'else' | 'both';
}

export interface Run {
  id: string;
  workflowId: string;
  workflowVersion: number;
  /** A test run of an unsaved draft: `workflowVersion` is the version it was edited from. */
  draft: boolean;
  mode: 'live' | 'test';
  ownerId: string;
  sourceId: string | null;
  threadId: string | null;
  inboundEventId: string | null;
  status: 'running' | 'succeeded' | 'failed';
  input: Record<string, unknown>;
  error: StepError | null;
  startedAt: string;
  finishedAt: string | null;
  steps?: RunStep[];
}

export interface TestRun extends Run {
  steps: RunStep[];
  messages: Record<string, unknown>[];
}

/** An earlier turn of a test chat, sent as a test run's `history`. */
export interface TestHistoryEntry {
  role: 'user' | 'assistant';
  text: string;
}

/** A memory record as the lists show it (`GET /api/memory-records`, `GET /api/test-memory`). */
export interface ListedMemoryRecord {
  id: string;
  definitionId: string;
  slug: string;
  ownerId: string;
  workflowId: string | null;
  threadId: string | null;
  runId: string | null;
  value: unknown;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether the value matches its definition's current schema (runs skip it when not). */
  valid: boolean;
  errors?: { path: string; message: string }[];
}

/** A subscriber as `GET /api/subscribers` gives them. */
export interface Subscriber {
  id: string;
  sourceId: string;
  foreignId: string;
  firstName: string;
  lastName: string;
  /** The platform's name, else a `name` a workflow remembered, else "Web visitor 3f2a" (live chat) or "Subscriber 3f2a". */
  displayName: string;
  /** Their source's channel; null when the source is gone. */
  channel: string | null;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface InboundEvent {
  id: string;
  sourceId: string;
  eventId: string;
  status: 'queued' | 'running' | 'done' | 'skipped' | 'failed';
  reason: string | null;
  attempts: number;
  receivedAt: string;
}
