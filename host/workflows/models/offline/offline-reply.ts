/**
 * The offline model's chat answer: friendly, deterministic, and visibly built from the input,
 * so a demo shows that the workflow, the history and the memory reached the model.
 *
 * @example
 * offlineReply({ text: 'hello', name: 'Ada' }); // 'Hi Ada! You said: "hello"'
 */
export function offlineReply({ text, name }: { text: string; name: string | undefined }): string {
  const greeting = name ? `Hi ${name}!` : 'Hi!';
  return text ? `${greeting} You said: "${text}"` : `${greeting} How can I help?`;
}
