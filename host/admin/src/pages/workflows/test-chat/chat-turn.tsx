import type { TestRun } from '../../../api/api-types.ts';
import { RunSteps } from '../../runs/run-steps.tsx';
import { BotMessage } from './bot-message.tsx';
import type { Chip } from './bot-message-view.ts';
import type { ChatTurn } from './chat-turn-types.ts';

/**
 * One turn of the test chat: the test subscriber's message, the bot's would-be messages as
 * bubbles, and the run behind them, expandable to its steps (the latest turn's open).
 */
export function ChatTurnItem({ turn, latest, onChoose, busy }: { turn: ChatTurn; latest: boolean; onChoose: (chip: Chip) => void; busy: boolean }) {
  return (
    <li className="chat-turn">
      <div className="chat-bubble chat-bubble-user">
        <p className="chat-text">{turn.input.text}</p>
        {turn.input.payload !== undefined && <small className="chat-payload">payload {turn.input.payload}</small>}
      </div>
      {!turn.run && !turn.error && <p className="chat-pending">Running {turn.ran}…</p>}
      {turn.error && (
        <p className="error" role="alert">
          Not run: {turn.error}
        </p>
      )}
      {turn.run?.messages.map((message, index) => <BotMessage key={index} message={message} onChoose={onChoose} disabled={busy} />)}
      {turn.run && turn.run.messages.length === 0 && <p className="empty">The bot would send nothing.</p>}
      {turn.run && <TurnRun run={turn.run} ran={turn.ran} open={latest} />}
    </li>
  );
}

/** The run behind a turn: what it ran, its status and error, and its steps when expanded. */
function TurnRun({ run, ran, open }: { run: TestRun; ran: string; open: boolean }) {
  return (
    <details className="test-run-result" data-status={run.status} open={open}>
      <summary>
        <span className="test-run-of">Ran {ran}</span>: <strong className={`status-${run.status}`}>{run.status}</strong>, {run.steps.length} step{run.steps.length === 1 ? '' : 's'}
      </summary>
      {run.error && (
        <p className="error">
          <code>{run.error.code}</code> {run.error.message}
        </p>
      )}
      <RunSteps steps={run.steps} />
    </details>
  );
}
