/**
 * On the embedded default, prints the chat page of the seeded web source beside the admin login
 * link: a plain line on stdout, so a newcomer can talk to the greeting workflow at once.
 */
export function printChatLink(publicUrl: string, sourceRef: string): void {
  process.stdout.write(`  Chat with the greeting bot: ${publicUrl}/chat/${sourceRef}\n\n`);
}
