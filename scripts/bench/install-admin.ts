/**
 * The install benchmark's calls to the host's admin API, as an operator (or the panel) makes
 * them: install, roll back and remove a channel package, make a source, and read which version
 * of a channel serves.
 */
import { signAdminToken } from '../../host/auth/admin-token.ts';

interface DiagnosticItem {
  name: string | null;
  status: string;
  package: { name: string; version: string } | null;
  runner: { pid: number | null; state: string } | null;
}

export class InstallAdmin {
  readonly #token: string;

  constructor(
    readonly baseUrl: string,
    authSecret: string,
  ) {
    this.#token = signAdminToken({ sub: 'install-benchmark', role: 'admin' }, authSecret, { ttl: '1h' });
  }

  /** `POST /api/channel/packages`: installs or upgrades to `spec` (`bot-channel-x@1.2.0`). */
  async install(spec: string): Promise<void> {
    await this.#call('POST', '/api/channel/packages', 200, { spec });
  }

  /** `POST /api/channel/packages/:name/rollback`: back to the version the last install replaced. */
  async rollback(packageName: string): Promise<void> {
    await this.#call('POST', `/api/channel/packages/${packageName}/rollback`, 200);
  }

  async remove(packageName: string): Promise<void> {
    await this.#call('DELETE', `/api/channel/packages/${packageName}`, 204);
  }

  /** Makes a source of `channel` with `settings`; returns its webhook ref. */
  async createSource(channel: string, settings: Record<string, unknown>): Promise<string> {
    const source = await this.#call('POST', '/api/sources', 201, { name: `Install benchmark (${channel})`, channel, settings });
    return (source as { ref: string }).ref;
  }

  /** The package version whose runner serves `channel` now, per the host's diagnostics; undefined when none does. */
  async servingVersion(channel: string): Promise<string | undefined> {
    const { items } = (await this.#call('GET', '/api/channel/diagnostics', 200)) as { items: DiagnosticItem[] };
    const entry = items.find((item) => item.name === channel && item.status === 'registered');
    return entry?.runner?.state === 'running' ? entry.package?.version : undefined;
  }

  async #call(method: string, url: string, expected: number, body?: Record<string, unknown>): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${this.#token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  }
}
