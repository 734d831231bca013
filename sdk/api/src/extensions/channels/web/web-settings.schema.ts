import { z } from 'zod';

/**
 * The per-source settings of the built-in `web` channel: what the chat page shows. No secrets:
 * the page is public, and sessions are signed by the host.
 * @example const { title, welcome_text } = webSettingsSchema.parse(source.settings ?? {});
 */
export const webSettingsSchema = z.object({
  title: z.string().max(100).default('Chat').meta({ title: 'Title', description: 'Heading of the chat page.' }),
  welcome_text: z
    .string()
    .max(1000)
    .default('Hi! Send a message to start.')
    .meta({ title: 'Welcome text', description: 'Shown before the first message of a conversation.' }),
});

/** The parsed settings of one web source. */
export type WebSettings = z.output<typeof webSettingsSchema>;
