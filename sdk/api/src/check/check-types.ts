import type { ChannelSource } from '../source.ts';
import type { ChannelUnderTest } from './channel-under-test.ts';
import type { FakePlatform } from './fake-platform.ts';
import type { ChannelFixtures } from './load-fixtures.ts';

/** One line of the report. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface CheckReport {
  channel: string;
  results: CheckResult[];
  ok: boolean;
}

export interface CheckContext {
  channel: ChannelUnderTest;
  fixtures: ChannelFixtures;
  /** The fake platform the source's settings point at (see {@link checkSource}). */
  platform: FakePlatform;
  source: ChannelSource;
  /** The clock timestamped signatures are made with; default: now. */
  now?: () => Date;
}

/** Runs one named check: a line of the report, failed by what it throws. */
export type Check = (name: string, run: () => Promise<string | void>) => Promise<boolean>;
