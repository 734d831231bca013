import path from 'node:path';
import { glob } from 'glob';

/**
 * The channel file of an unpacked package (`**\/*.channel.js`, its own dependencies aside), as
 * discovery would find it; undefined when it holds none.
 * @example const file = await findChannelFile('/srv/channel-packages/bot-channel-x/1.0.0-ab12/node_modules/bot-channel-x');
 */
export async function findChannelFile(packageDir: string): Promise<string | undefined> {
  const [first] = (await glob('**/*.channel.js', { cwd: packageDir, nodir: true, ignore: ['node_modules/**'] })).sort();
  return first === undefined ? undefined : path.join(packageDir, first);
}
