import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inboundFileLimitsFrom } from '../../host/attachments/inbound-file-limits.ts';
import { ConfigError, loadConfig } from '../../host/config/load-config.ts';

const SECRET = 'x'.repeat(32);

describe('loadConfig', () => {
  test('applies defaults and resolves paths against the working directory', () => {
    const config = loadConfig({}, '/srv/bot');
    assert.equal(config.PORT, 3000);
    assert.equal(config.BOT_DATA_DIR, '/srv/bot/var');
    assert.equal(config.BOT_APP_ROOT, '/srv/bot');
    assert.equal(config.embeddedDatabase, true);
  });

  test('returns a frozen object', () => {
    assert.ok(Object.isFrozen(loadConfig({}, '/')));
  });

  test('treats an empty variable as unset', () => {
    assert.equal(loadConfig({ PORT: '' }, '/').PORT, 3000);
  });

  test('names every invalid variable in one error', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', BOT_MEMORY_SWEEP_BATCH_SIZE: '-1', BOT_LOG_LEVEL: 'loud' }, '/'),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of ['PORT', 'BOT_MEMORY_SWEEP_BATCH_SIZE', 'BOT_LOG_LEVEL']) assert.match(error.message, new RegExp(name));
        return true;
      },
    );
  });

  test('requires both secrets when DATABASE_URL is set', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/bot' }, '/'), /BOT_AUTH_SECRET.*\n.*BOT_DOWNLOAD_SECRET/);
    const config = loadConfig(
      { DATABASE_URL: 'postgres://db/bot', BOT_AUTH_SECRET: SECRET, BOT_DOWNLOAD_SECRET: SECRET },
      '/',
    );
    assert.equal(config.embeddedDatabase, false);
  });

  test('refuses short secrets', () => {
    assert.throws(() => loadConfig({ BOT_AUTH_SECRET: 'changeme' }, '/'), /BOT_AUTH_SECRET: must be at least 32 characters/);
  });

  test('reads the quota and retention of inbound files in MiB and days', () => {
    assert.deepEqual(inboundFileLimitsFrom(loadConfig({}, '/')), { maxBytesPerSource: 1024 * 1024 * 1024, retentionMs: 30 * 24 * 60 * 60_000, sweepIntervalMs: 60_000 });
    const config = loadConfig({ BOT_INBOUND_FILES_MAX_MB_PER_SOURCE: '5', BOT_INBOUND_FILES_RETENTION_DAYS: '7', BOT_MEMORY_SWEEP_INTERVAL_MS: '1000' }, '/');
    assert.deepEqual(inboundFileLimitsFrom(config), { maxBytesPerSource: 5 * 1024 * 1024, retentionMs: 7 * 24 * 60 * 60_000, sweepIntervalMs: 1_000 });
    assert.throws(() => loadConfig({ BOT_INBOUND_FILES_MAX_MB_PER_SOURCE: '0', BOT_INBOUND_FILES_RETENTION_DAYS: '1.5' }, '/'), /BOT_INBOUND_FILES_MAX_MB_PER_SOURCE[\s\S]*BOT_INBOUND_FILES_RETENTION_DAYS/);
  });

  test("stops at a named AI key's URL that is not http(s), naming the variable", () => {
    const key = 'gsk-0123456789';
    assert.throws(
      () => loadConfig({ BOT_AI_API_KEY_GROQ: key, BOT_AI_BASE_URL_GROQ: 'file:///etc/passwd', BOT_AI_API_KEY_MISTRAL: key, BOT_AI_BASE_URL_MISTRAL: 'not a url', BOT_AI_API_KEY_LOCAL: key, BOT_AI_BASE_URL_LOCAL: 'https://alice:s3cret@llm.internal/v1' }, '/'),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems.map((problem) => problem.split(':')[0]), ['BOT_AI_BASE_URL_GROQ', 'BOT_AI_BASE_URL_MISTRAL', 'BOT_AI_BASE_URL_LOCAL']);
        assert.doesNotMatch(error.message, new RegExp(key));
        assert.doesNotMatch(error.message, /s3cret/);
        return true;
      },
    );
    // A key with its URL yet to come, or an http(s) one, starts.
    assert.doesNotThrow(() => loadConfig({ BOT_AI_API_KEY_GROQ: key }, '/'));
    assert.doesNotThrow(() => loadConfig({ BOT_AI_API_KEY_GROQ: key, BOT_AI_BASE_URL_GROQ: 'https://api.groq.com/openai/v1' }, '/'));
  });

  test('BOT_AI_BASE_URL is an http(s) URL without credentials', () => {
    for (const url of ['file:///etc/passwd', 'https://alice:s3cret@llm.internal/v1']) {
      assert.throws(() => loadConfig({ BOT_AI_BASE_URL: url }, '/'), (error: unknown) => error instanceof ConfigError && /BOT_AI_BASE_URL/.test(error.message) && !error.message.includes('s3cret'));
    }
    assert.equal(loadConfig({ BOT_AI_BASE_URL: 'http://127.0.0.1:11434/v1' }, '/').BOT_AI_BASE_URL, 'http://127.0.0.1:11434/v1');
  });

  test('reads boolean flags', () => {
    assert.equal(loadConfig({ BOT_LOG_PRETTY: 'false' }, '/').BOT_LOG_PRETTY, false);
    assert.throws(() => loadConfig({ BOT_LOG_PRETTY: 'maybe' }, '/'), /BOT_LOG_PRETTY/);
  });
});
