import { quickReplySchema, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import type { WorkflowAction } from '../runtime/action.ts';

const inputsSchema = z.object({
  text: z.union([z.string(), z.number(), z.boolean()]).transform(String).pipe(z.string().min(1, 'text is empty')),
  quick_replies: z.array(quickReplySchema).optional(),
});

/**
 * `send_text_message`: sends `text` to the subscriber (with `quick_replies` as a quick-reply
 * message when given). Output: the text sent and the platform's message id.
 */
export const sendTextMessageAction: WorkflowAction = {
  name: 'send_text_message',
  // It reads its inputs, then sends: nothing of the database before its first claim.
  claimsSendFirst: true,
  async run({ inputs }, { outbox }) {
    const parsed = inputsSchema.safeParse(inputs);
    if (!parsed.success) {
      throw new AppError('BOT_ERR_WORKFLOW_INPUT_INVALID', `send_text_message: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'inputs'}: ${issue.message}`).join('; ')}`);
    }
    const { text, quick_replies: quickReplies } = parsed.data;
    const envelope: StdOutgoingMessageEnvelope =
      quickReplies && quickReplies.length > 0 ? { type: 'quickReply', data: { text, quickReplies } } : { type: 'text', data: { text } };
    const { mid } = await outbox.send(envelope);
    return { text, mid: mid ?? null };
  },
};
