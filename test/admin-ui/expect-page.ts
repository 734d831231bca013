import type { Locator, Page } from 'playwright-core';

const TIMEOUT_MS = 10_000;

/**
 * Waiting assertions on a locator (playwright-core has no `expect`): each polls until it holds
 * or fails with what it saw after TIMEOUT_MS.
 */
export function expect(locator: Locator) {
  return {
    visible: () => locator.first().waitFor({ state: 'visible', timeout: TIMEOUT_MS }),
    hidden: () => locator.first().waitFor({ state: 'hidden', timeout: TIMEOUT_MS }),
    text: (expected: string) => until(locator, async () => (await locator.first().textContent())?.trim(), (text) => text === expected, expected),
    contains: (expected: string) => until(locator, () => locator.first().textContent(), (text) => text?.includes(expected) ?? false, expected),
    value: (expected: string) => until(locator, () => locator.first().inputValue(), (value) => value === expected, expected),
    disabled: () => until(locator, () => locator.first().isDisabled(), (disabled) => disabled, 'disabled'),
  };
}

async function until<T>(locator: Locator, read: () => Promise<T>, holds: (value: T) => boolean, expected: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read().catch(() => undefined);
    if (last !== undefined && holds(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${locator}: expected ${JSON.stringify(expected)}, last saw ${JSON.stringify(last)}`);
}

/**
 * Waits until the page's URL matches, whether a document load or the panel's client-side
 * router (history API) changed it; `page.waitForURL` also waits for a load event, which a
 * client-side change racing a reload may never bring.
 */
export async function expectUrl(page: Page, pattern: RegExp | string): Promise<void> {
  const matches = (url: string) => (typeof pattern === 'string' ? url === pattern : pattern.test(url));
  const deadline = Date.now() + TIMEOUT_MS;
  while (!matches(page.url())) {
    if (Date.now() > deadline) throw new Error(`expected the URL to match ${pattern}, it is ${page.url()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
