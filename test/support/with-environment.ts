import type { TestContext } from 'node:test';

/** Sets `variables` in this process's environment for the test, and puts back what was there after it. */
export function withEnvironment(t: TestContext, variables: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  t.after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}
