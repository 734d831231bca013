/** A script's options, or its usage and exit code 2 when they make no sense. */
export function readOptionsOrExit<T>(read: () => T, usage: string): T {
  try {
    return read();
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}
