import assert from 'node:assert/strict';

/**
 * Strings that must never be shown or logged, by name. A JWT is listed whole and by its
 * signature too: the signature is what makes a copied token usable.
 */
export class SecretNeedles {
  readonly #needles = new Map<string, string>();

  add(name: string, value: string): this {
    assert.ok(value.length >= 8, `${name}: too short to search for without false alarms`);
    this.#needles.set(name, value);
    return this;
  }

  addToken(name: string, token: string): this {
    this.add(name, token);
    return this.add(`${name} (signature)`, token.split('.')[2]!);
  }

  /** Fails naming the secret and where it was found, and never prints the haystack itself. */
  assertAbsent(haystack: string, where: string): void {
    for (const [name, value] of this.#needles) {
      assert.ok(!haystack.includes(value), `${where} contains ${name}`);
    }
  }
}
