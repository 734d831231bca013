import semver from 'semver';
import type { Config } from '../../config/config.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { PackageTrust } from './installed-packages.ts';

/** Which packages an operator lets the host install, besides BOT_CHANNEL_INSTALL. */
export interface InstallRules {
  /** `name` or `name@range` entries (BOT_CHANNEL_ALLOW); empty allows every name. */
  allow: string[];
  /** The same (BOT_CHANNEL_DENY); a match refuses, whatever `allow` says. */
  deny: string[];
  /** A registry version younger than this is refused (BOT_CHANNEL_MIN_RELEASE_AGE_HOURS); 0 turns it off. */
  minReleaseAgeHours: number;
  /**
   * Only what the registry signs (BOT_CHANNEL_REQUIRE_SIGNED): the package and each of its
   * dependencies must carry a registry signature that verifies; an upload, which no registry
   * signs, is refused.
   */
  requireSigned: boolean;
}

export const OPEN_RULES: InstallRules = { allow: [], deny: [], minReleaseAgeHours: 0, requireSigned: false };

/** A version the rules judge: what the registry (or the upload) says of it. */
export interface RuledPackage {
  name: string;
  version: string;
  trust: PackageTrust;
  /** The registry's publish time; undefined when it does not say, or for an upload. */
  publishedAt: string | undefined;
  fromRegistry: boolean;
}

/**
 * Refuses a package the rules do not let in, with BOT_ERR_CHANNEL_PACKAGE_POLICY and the rule
 * that refused it. A minimum release age gives the registry (and the community) time to pull a
 * hijacked release before any host installs it; a version whose publish time the registry does
 * not say cannot show its age and is refused while the rule is on. Uploads carry no publish
 * time: the age rule is for registry installs.
 * @example checkInstallRules({ name: 'bot-channel-x', version: '1.2.0', trust: 'verified', publishedAt: '2026-11-01T00:00:00Z', fromRegistry: true }, rules, new Date());
 */
export function checkInstallRules(candidate: RuledPackage, rules: InstallRules, now: Date): void {
  checkStandingRules(candidate, rules);
  const label = `${candidate.name}@${candidate.version}`;
  if (!candidate.fromRegistry || rules.minReleaseAgeHours <= 0) return;
  const published = candidate.publishedAt === undefined ? Number.NaN : Date.parse(candidate.publishedAt);
  if (Number.isNaN(published)) refuse(`${label}: the registry does not say when it was published, and BOT_CHANNEL_MIN_RELEASE_AGE_HOURS requires its age`);
  const ageHours = (now.getTime() - published) / 3_600_000;
  if (ageHours < rules.minReleaseAgeHours) {
    refuse(`${label} was published ${Math.max(0, Math.floor(ageHours))} h ago; BOT_CHANNEL_MIN_RELEASE_AGE_HOURS asks for ${rules.minReleaseAgeHours} h`);
  }
}

/**
 * The rules a version must meet whenever it is put into service, a rollback to one installed
 * before the rules changed included: the deny and allow lists, and BOT_CHANNEL_REQUIRE_SIGNED.
 * (The release age only grows: a version old enough once stays so.)
 */
export function checkStandingRules(candidate: Omit<RuledPackage, 'publishedAt'>, rules: InstallRules): void {
  const label = `${candidate.name}@${candidate.version}`;
  const denied = rules.deny.find((entry) => matches(entry, candidate));
  if (denied) refuse(`${label} is denied by BOT_CHANNEL_DENY (${denied})`);
  if (rules.allow.length > 0 && !rules.allow.some((entry) => matches(entry, candidate))) refuse(`${label} is not in BOT_CHANNEL_ALLOW`);
  if (rules.requireSigned && candidate.trust !== 'verified') {
    refuse(candidate.fromRegistry
      ? `${label} carries no registry signature (or the registry publishes no keys), and BOT_CHANNEL_REQUIRE_SIGNED asks for one`
      : `${label} is an upload, which no registry signs, and BOT_CHANNEL_REQUIRE_SIGNED asks for a registry signature`);
  }
}

/** The operator's rules from the configuration (BOT_CHANNEL_ALLOW, BOT_CHANNEL_DENY, BOT_CHANNEL_MIN_RELEASE_AGE_HOURS, BOT_CHANNEL_REQUIRE_SIGNED). */
export function installRulesFrom(config: Pick<Config, 'BOT_CHANNEL_ALLOW' | 'BOT_CHANNEL_DENY' | 'BOT_CHANNEL_MIN_RELEASE_AGE_HOURS' | 'BOT_CHANNEL_REQUIRE_SIGNED'>): InstallRules {
  return {
    allow: parseRuleList(config.BOT_CHANNEL_ALLOW),
    deny: parseRuleList(config.BOT_CHANNEL_DENY),
    minReleaseAgeHours: config.BOT_CHANNEL_MIN_RELEASE_AGE_HOURS,
    requireSigned: config.BOT_CHANNEL_REQUIRE_SIGNED,
  };
}

/** Parses a BOT_CHANNEL_ALLOW/DENY list: entries separated by commas or whitespace. */
function parseRuleList(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

/** `name` or `name@range`: the name exactly, and the version within the range. */
function matches(entry: string, candidate: { name: string; version: string }): boolean {
  const at = entry.indexOf('@', 1);
  const name = at === -1 ? entry : entry.slice(0, at);
  const range = at === -1 ? undefined : entry.slice(at + 1);
  return name === candidate.name && (range === undefined || semver.satisfies(candidate.version, range, { includePrerelease: true }));
}

function refuse(message: string): never {
  throw new AppError('BOT_ERR_CHANNEL_PACKAGE_POLICY', message);
}
