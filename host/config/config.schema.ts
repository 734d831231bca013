import path from 'node:path';
import { z } from 'zod';
import { SAMPLE_PLATFORM_DEFAULT_URL } from '../seed/sample-demo-source.ts';
import { plainHttpUrl } from '../http/plain-http-url.ts';

/** Reads "true"/"false"/"1"/"0" the way operators write them in environment files. */
const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();

/** Secrets must be long enough that guessing them is hopeless. */
const secret = z.string().min(32, 'must be at least 32 characters');

/**
 * Every setting the host reads from its environment, in one place. Each field has a default or is
 * optional, and a description that docs/configuration.md's table repeats.
 */
export const configSchema = z.object({
  DATABASE_URL: z
    .url()
    .optional()
    .describe('PostgreSQL connection string. Absent: start the embedded PostgreSQL under BOT_DATA_DIR.'),
  PORT: nonNegativeInt.max(65535).default(3000).describe('HTTP port of the host (0 picks a free one).'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface the HTTP server listens on.'),
  BOT_PUBLIC_URL: z
    .url()
    .optional()
    .describe('Base URL people and platforms reach the host at; used in printed links. Default: http://HOST:PORT.'),
  BOT_APP_ROOT: z.string().default('.').describe('Folder that channel discovery scans.'),
  BOT_DATA_DIR: z
    .string()
    .default('./var')
    .describe('Holds the embedded database, the generated secrets and attachment files (attachments/).'),
  BOT_AUTH_SECRET: secret
    .optional()
    .describe('HS256 key for admin tokens. Required with DATABASE_URL; generated under BOT_DATA_DIR otherwise.'),
  BOT_DOWNLOAD_SECRET: secret
    .optional()
    .describe('Key for signed attachment download URLs. Required with DATABASE_URL; generated otherwise.'),
  BOT_WEB_SESSION_SECRET: secret
    .optional()
    .describe('Key for live chat session tokens. Generated under BOT_DATA_DIR on the embedded default; with DATABASE_URL, derived from BOT_AUTH_SECRET when unset.'),
  BOT_WEB_CHAT_REPLY_RETENTION_MS: positiveInt
    .default(30 * 24 * 60 * 60_000)
    .describe('How long live chat replies are kept (replayed to a returning client, shown as its history); older ones are swept.'),
  BOT_METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe('Bearer token GET /metrics requires (16+ characters). Unset: /metrics is open, for a scraper on a private network.'),
  BOT_DOWNLOAD_TOKEN_TTL_MS: positiveInt
    .default(60 * 60_000)
    .describe('How long a signed attachment download URL stays valid.'),
  BOT_AUTH_LOGIN_LINK_TTL_MS: positiveInt
    .default(15 * 60_000)
    .describe('How long the one-time admin login link printed at start stays valid.'),
  BOT_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level.'),
  BOT_LOG_PRETTY: booleanFlag.optional().describe('Human-readable logs. Default: on when stdout is a terminal.'),
  BOT_HTTP_TRUST_PROXY: booleanFlag
    .default(false)
    .describe('Trust X-Forwarded-* headers; turn on only behind a proxy that sets them.'),
  BOT_HTTP_MAX_BODY_BYTES: positiveInt.default(1024 * 1024).describe('Largest admin API request body; larger gets 413.'),
  BOT_WEBHOOK_MAX_BODY_BYTES: positiveInt.default(1024 * 1024).describe('Largest webhook body; larger gets 413.'),
  BOT_SAMPLE_PLATFORM_URL: z
    .url({ protocol: /^https?$/ })
    .default(SAMPLE_PLATFORM_DEFAULT_URL)
    .describe('Embedded default only: where the sample source seeded on the first start sends its replies (its `api_url`), where `npm run sample:platform` listens.'),
  BOT_DB_POOL_MAX: positiveInt.default(10).describe('Largest number of pooled database connections.'),
  BOT_DB_EMBEDDED_PORT: nonNegativeInt
    .max(65535)
    .default(0)
    .describe('Port of the embedded PostgreSQL (0 picks a free one at each start).'),
  BOT_SANDBOX_CALL_TIMEOUT_MS: positiveInt
    .default(5_000)
    .describe('Time limit of each call into plugin code; past it the busy worker is terminated.'),
  BOT_SANDBOX_MAX_HEAP_MB: positiveInt.default(128).describe('Heap limit of each plugin worker thread.'),
  BOT_SANDBOX_MAX_THREADS: positiveInt.default(2).describe('Worker threads per channel.'),
  BOT_SANDBOX_MAX_QUEUE: positiveInt.default(1_000).describe('Calls that may wait for a free worker of a channel; more get 503.'),
  BOT_SANDBOX_IDLE_TIMEOUT_MS: nonNegativeInt
    .default(60_000)
    .describe('An idle worker beyond the first of a channel is stopped after this long.'),
  BOT_SANDBOX_START_TIMEOUT_MS: positiveInt
    .default(30_000)
    .describe("Time limit for a channel's runner to start and its first worker to import the plugin; generous, since a busy machine is slow and a channel still starting only answers 503."),
  BOT_ISOLATION: z
    .enum(['auto', 'strict'])
    .default('auto')
    .describe('`auto`: channels run in the bubblewrap sandbox where it works, else in the `reduced` tier with a warning. `strict`: a channel that cannot get the sandbox does not start.'),
  BOT_ISOLATION_RUNNER_UID_BASE: positiveInt
    .min(65_535)
    .max(2_147_418_112)
    .default(200_000)
    .describe("A host running as root gives each channel runner a uid and gid of its own from the 65,536 ids starting here, skipping ids an account, an /etc/subuid range or a live process uses; give each host on one machine a range of its own. A host that is not root runs its runners as itself."),
  BOT_SANDBOX_MAX_RSS_MB: positiveInt
    .default(768)
    .describe("Resident memory limit of a channel's runner process tree (memory outside the JS heap counts); past it the runner is killed and restarted."),
  BOT_SANDBOX_MAX_IDLE_CPU_PERCENT: positiveInt
    .default(50)
    .describe('CPU a channel runner may burn with no call in flight (percent of one core, three checks in a row); past it the runner is killed and restarted.'),
  BOT_SANDBOX_WATCHDOG_INTERVAL_MS: positiveInt.default(1_000).describe("Time between the watchdog's looks at each runner's memory and CPU."),
  BOT_SANDBOX_RESTART_DELAY_MS: positiveInt
    .default(500)
    .describe('First delay before a dead channel runner is started again; it doubles at each failure in a row.'),
  BOT_SANDBOX_RESTART_MAX_DELAY_MS: positiveInt.default(30_000).describe('Longest delay between two restarts of a failing channel runner.'),
  BOT_EGRESS_TIMEOUT_MS: positiveInt
    .default(10_000)
    .describe("Time limit of each request a plugin makes through the SDK's fetch, redirects and body included; a request also ends at the sandbox's host-call limit (half of BOT_SANDBOX_CALL_TIMEOUT_MS)."),
  BOT_EGRESS_MAX_REQUEST_BYTES: positiveInt.default(10 * 1024 * 1024).describe("Largest body a plugin's fetch may send; larger is refused."),
  BOT_EGRESS_MAX_RESPONSE_BYTES: positiveInt
    .default(10 * 1024 * 1024)
    .describe("Largest response body a plugin's fetch may receive (after decompression); the transfer stops past it."),
  BOT_EGRESS_MAX_REDIRECTS: nonNegativeInt.max(20).default(5).describe("Redirects a plugin's fetch follows, each checked against the egress rules; one more fails."),
  BOT_EGRESS_ALLOW_SELF: booleanFlag
    .default(false)
    .describe(
      "Let a plugin's fetch reach the host's own HTTP port (PORT) on a loopback, unspecified or local address, when an x-egress origin points there. Off: refused (BOT_ERR_EGRESS_HOST_SELF), redirects and names resolving there included; its API, admin and /metrics are behind that port.",
    ),
  BOT_CHANNEL_INSTALL: z
    .enum(['off', 'registry', 'any'])
    .default('registry')
    .describe('What the host may install as channel packages: `off` nothing, `registry` packages from BOT_CHANNEL_REGISTRY, `any` those and uploaded tarballs. It never runs a package\'s install scripts.'),
  BOT_CHANNEL_REGISTRY: z
    .url({ protocol: /^https?$/ })
    .default('https://registry.npmjs.org/')
    .describe('The npm registry channel packages are installed from. No .npmrc or npm_config_* setting is read.'),
  BOT_CHANNEL_REGISTRY_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe('Bearer token for BOT_CHANNEL_REGISTRY (a private registry); never logged or shown.'),
  BOT_CHANNEL_ALLOW: z
    .string()
    .optional()
    .describe('Channel packages the host may install, as `name` or `name@range`, separated by commas; unset allows every name (BOT_CHANNEL_DENY still applies).'),
  BOT_CHANNEL_DENY: z
    .string()
    .optional()
    .describe('Channel packages the host refuses to install, as `name` or `name@range`, separated by commas; a match wins over BOT_CHANNEL_ALLOW.'),
  BOT_CHANNEL_MIN_RELEASE_AGE_HOURS: nonNegativeInt
    .default(0)
    .describe('A registry version younger than this is refused (time for a hijacked release to be pulled); 0 turns the rule off.'),
  BOT_CHANNEL_REQUIRE_SIGNED: booleanFlag
    .default(false)
    .describe("Install only what the registry signs: the package and each of its dependencies must carry a registry signature that verifies against the registry's published keys (a signature that fails refuses the install whatever this says). Uploaded tarballs, which no registry signs, are refused."),
  BOT_CHANNELS_FILE: z
    .string()
    .min(1)
    .optional()
    .describe('A file of `name@version#sha512-…` lines: the channel packages the host runs, reconciled at each start (installed, upgraded, removed to match). While it is set, the API and the panel only read the packages.'),
  BOT_CHANNEL_STORE_DIR: z
    .string()
    .default('./channel-packages')
    .describe('Where the host keeps the channel packages it installs (a copy of each is in the database too). Outside BOT_DATA_DIR, which only the host may enter: each runner reads its package as a user of its own.'),
  BOT_INBOUND_FILES_MAX_MB_PER_SOURCE: positiveInt
    .default(1024)
    .describe("Most the files subscribers send may take on disk per source, in MiB (under BOT_DATA_DIR/attachments/<sourceId>/); once a source's would go past it, the host downloads no more of them: they reach the workflow without a url (BOT_ERR_ATTACHMENT_QUOTA_EXCEEDED). Files put there for sending do not count."),
  BOT_INBOUND_FILES_RETENTION_DAYS: positiveInt
    .default(30)
    .describe('Days the files subscribers send are kept; older ones are deleted by the sweep (every BOT_MEMORY_SWEEP_INTERVAL_MS), and their links answer 404. Files put there for sending stay.'),
  BOT_MEMORY_SWEEP_INTERVAL_MS: positiveInt.default(60_000).describe('Time between sweeps (expired memory; old live chat replies; old inbound files).'),
  // Measured with `npm run bench -- memory` on 2 cores: the sweep must delete >= 150,000 rows/s, and
  // the fewer, larger batches with proportionally longer pauses cost writers the least at that rate.
  BOT_MEMORY_SWEEP_BATCH_SIZE: positiveInt.default(40_000).describe('Rows deleted per statement by a TTL sweep.'),
  BOT_MEMORY_SWEEP_PAUSE_MS: nonNegativeInt
    .default(160)
    .describe('Pause between two sweep batches, so concurrent writers keep their latency.'),
  BOT_DISPATCH_CONCURRENCY: positiveInt.default(256).describe('Inbound events processed at once by one instance (each of another conversation); their writes share statements, so more at once costs fewer round trips each. Lower it when each run holds something scarce (a model provider\'s rate limit).'),
  BOT_DISPATCH_MAX_ATTEMPTS: positiveInt
    .default(8)
    .describe('Tries of an inbound event, with exponential backoff (e^n seconds after the n-th), before it is kept as a dead letter.'),
  BOT_DISPATCH_POLL_INTERVAL_MS: positiveInt
    .default(2_000)
    .describe("How often an instance looks for other instances' due retries and dead instances' events (a safety net: new events wake it by NOTIFY, its own retries by timer, a conversation's next event is handed on at once)."),
  BOT_DISPATCH_LEASE_MS: positiveInt
    .default(30_000)
    .describe("After this long without a heartbeat, a dead instance's events are taken over by the others."),
  BOT_THREAD_INACTIVITY_MS: positiveInt
    .default(30 * 60_000)
    .describe("A subscriber's message after this long of silence starts a new conversation thread."),
  BOT_AI_BASE_URL: z
    .string()
    .refine((value) => plainHttpUrl(value) !== undefined, 'must be an http(s) URL without credentials')
    .optional()
    .describe('Base URL of the OpenAI-compatible API that `openai-compatible` models call (e.g. https://api.openai.com/v1).'),
  BOT_AI_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Bearer key sent to BOT_AI_BASE_URL and nowhere else; never logged. More keys: BOT_AI_API_KEY_<NAME>, each sent only to its BOT_AI_BASE_URL_<NAME>.',
    ),
  BOT_AI_ALLOW_WORKFLOW_BASE_URL: booleanFlag
    .default(false)
    .describe(
      "Let a model def's settings.base_url choose where the host connects (never with a key). Off: only the BOT_AI_BASE_URL* URLs are called; on, workflow editors can make the host call any address it reaches, loopback and internal ones too.",
    ),
  BOT_AI_REQUEST_TIMEOUT_MS: positiveInt.default(60_000).describe('Time limit of each call to a model; past it the step fails.'),
  BOT_AI_MAX_RETRIES: nonNegativeInt
    .max(10)
    .default(2)
    .describe('Retries of a model call that failed with a retryable status (408, 409, 429, 5xx) or could not connect.'),
  BOT_WORKFLOW_EXPRESSION_TIMEOUT_MS: positiveInt
    .default(1_000)
    .describe('Time limit of each workflow expression evaluation; past it the step fails.'),
});

export type ConfigInput = z.input<typeof configSchema>;

/** The parsed configuration, with paths made absolute. */
export type Config = Readonly<
  Omit<z.output<typeof configSchema>, 'BOT_APP_ROOT' | 'BOT_DATA_DIR' | 'BOT_CHANNEL_STORE_DIR'> & {
    BOT_APP_ROOT: string;
    BOT_DATA_DIR: string;
    BOT_CHANNEL_STORE_DIR: string;
    /** True when no DATABASE_URL is given and the host runs its own embedded PostgreSQL. */
    embeddedDatabase: boolean;
  }
>;

export function resolvePaths(parsed: z.output<typeof configSchema>, cwd: string): Config {
  return {
    ...parsed,
    BOT_APP_ROOT: path.resolve(cwd, parsed.BOT_APP_ROOT),
    BOT_DATA_DIR: path.resolve(cwd, parsed.BOT_DATA_DIR),
    BOT_CHANNEL_STORE_DIR: path.resolve(cwd, parsed.BOT_CHANNEL_STORE_DIR),
    embeddedDatabase: parsed.DATABASE_URL === undefined,
  };
}
