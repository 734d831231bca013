/**
 * On the embedded default, prints the chat page of the seeded web source beside the admin login
 * link: a plain line on stdout, so a newcomer can talk to the greeting workflow at once.
 */
export function printChatLink(publicUrl: string, sourceRef: string): void {
  process.stdout.write(`  Chat with the greeting bot: ${publicUrl}/chat/${sourceRef}\n\n`);
}

/**
 * The end of start-up on the embedded default, once the plugins are loaded: the links again, so
 * the last lines a newcomer reads are the ones to open, whatever was logged in between.
 */
export function printReadyLinks(publicUrl: string, chatSourceRef: string | undefined): void {
  const chat = chatSourceRef ? `  Chat with the greeting bot: ${publicUrl}/chat/${chatSourceRef}\n` : '';
  process.stdout.write(`  Ready at ${publicUrl}\n${chat}  Admin panel: the one-time login link above, or npm run token -- --role admin\n\n`);
}
