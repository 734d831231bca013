import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { formatDate } from '../../components/format-date.ts';
import type { ConversationMessage } from './run-view.ts';

/** The anchor the Runs list links to. */
export const CONVERSATION_ANCHOR = 'conversation';

/** The last messages of a run's thread, the subscriber's on the left; scrolled to when linked. */
export function RunConversation({ messages, subscriber }: { messages: ConversationMessage[]; subscriber: string }) {
  const { hash } = useLocation();
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (hash === `#${CONVERSATION_ANCHOR}`) section.current?.scrollIntoView();
  }, [hash]);
  return (
    <section id={CONVERSATION_ANCHOR} ref={section} aria-label="Conversation">
      <h2>Conversation</h2>
      {messages.length === 0 ? (
        <p className="empty">No messages: a test run has no thread.</p>
      ) : (
        <ol className="conversation">
          {messages.map((message, index) => (
            <li key={index} data-direction={message.direction} title={formatDate(message.createdAt)}>
              <small>{message.direction === 'in' ? subscriber : 'Bot'}</small>
              <div>{message.text || <em>(no text)</em>}</div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
