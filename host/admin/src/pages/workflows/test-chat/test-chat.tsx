import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TestRun, Workflow } from '../../../api/api-types.ts';
import { useSession } from '../../../auth/session-context.tsx';
import type { Chip } from './bot-message-view.ts';
import { ChatTurnItem } from './chat-turn.tsx';
import { TestMemoryPanel } from './test-memory-panel.tsx';
import './test-chat.css';
import { useTestChat } from './use-test-chat.ts';

/**
 * The docked test chat: a conversation with what the editor shows, as a test subscriber. Each
 * message is a test run of the editor's YAML (an unsaved draft when it differs from the shown
 * version, sent as `yaml` and saved nowhere), with the earlier turns as its history; the bot's
 * would-be messages show as bubbles whose quick replies and buttons answer with their payload.
 * The test subscriber's memory is shown below, with a reset. `onFinished` hears every finished
 * run (the editor draws the last one on the flow).
 */
export function TestChat({ workflow, yaml, onFinished }: { workflow: Workflow; yaml: string; onFinished?: (run: TestRun) => void }) {
  const { can } = useSession();
  const [text, setText] = useState('hello');
  const [ownerId, setOwnerId] = useState('');
  const chat = useTestChat({ workflow, yaml, ownerId, onFinished });
  const isDraft = yaml !== workflow.yaml;
  const allowed = can('run:create');
  const busy = !allowed || chat.running;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !text.trim()) return;
    setText('');
    void chat.send({ message_type: 'text', text });
  };
  const choose = (chip: Chip) => {
    if (!busy && chip.payload !== undefined) void chat.send({ message_type: 'quickReply', text: chip.title, payload: chip.payload });
  };
  const turnsRun = chat.turns.filter((turn) => turn.run).length;
  // The newest turn in view, as in a messenger, each time a turn is sent or answered.
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [chat.turns]);
  return (
    <section className="test-chat" aria-label="Test chat">
      <header className="test-chat-header">
        <h2>Test chat ({isDraft ? 'unsaved draft' : `v${workflow.version}`})</h2>
        <button type="button" disabled={chat.turns.length === 0} onClick={chat.clear}>
          New conversation
        </button>
      </header>
      <div className="test-chat-scroll" ref={scroller} aria-live="polite">
        {chat.turns.length === 0 ? (
          <p className="empty">Send a message to talk to this workflow as a test subscriber. Nothing is sent to anyone.</p>
        ) : (
          <ol className="test-chat-transcript" aria-label="Messages">
            {chat.turns.map((turn, index) => (
              <ChatTurnItem key={turn.id} turn={turn} latest={index === chat.turns.length - 1} onChoose={choose} busy={busy} />
            ))}
          </ol>
        )}
      </div>
      <form className="test-chat-composer" onSubmit={submit}>
        <label>
          Message
          <input name="testText" value={text} autoComplete="off" onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" disabled={busy || !text.trim()}>
          {chat.running ? 'Running…' : 'Run test'}
        </button>
      </form>
      <details className="test-chat-owner">
        <summary>Test subscriber{ownerId ? `: test:${ownerId}` : ''}</summary>
        <label>
          Test owner <small>(memory owner test:&lt;name&gt;)</small>
          <input name="ownerId" value={ownerId} placeholder="you" onChange={(e) => setOwnerId(e.target.value.trim())} />
        </label>
      </details>
      <TestMemoryPanel ownerId={ownerId} turnsRun={turnsRun} />
    </section>
  );
}
