/**
 * Settles like `promise`, or rejects with `onTimeout()` after `ms`. The timer is cleared on
 * settle; it stays ref'd on purpose, since someone awaits this deadline (Piscina unrefs idle
 * workers, so without it a process awaiting a worker's start could just exit).
 * @example await withTimeout(bridge.getAttachmentPublicUrl(id, ref), 1000, () => new Error('late'));
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
