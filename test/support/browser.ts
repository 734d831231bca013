import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (apt), never a browser downloaded through npm; `.ci/run` installs it. */
export const CHROMIUM_PATH = process.env.BOT_TEST_CHROMIUM ?? '/usr/bin/chromium';

const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));

/**
 * Why browser tests cannot run here, or undefined when they can. On CI (`CI` set) a missing
 * browser is not a reason: the test must fail there, so it is never silently skipped.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH) || process.env.CI) return undefined;
  return `no browser at ${CHROMIUM_PATH} (apt-get install chromium, or set BOT_TEST_CHROMIUM)`;
}

/** Headless chromium with the flags a root, GPU-less machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}

/** Saves a full-page screenshot as a test artefact (git-ignored `test-artifacts/screenshots/<name>.png`). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
