import { botMessageView, type Chip } from './bot-message-view.ts';

/**
 * One message the bot would send, as a chat bubble: its text, a file link, cards, and its quick
 * replies and buttons as chips. A chip with a payload sends it as the next turn (`onChoose`); a
 * link button opens its URL.
 */
export function BotMessage({ message, onChoose, disabled }: { message: Record<string, unknown>; onChoose: (chip: Chip) => void; disabled: boolean }) {
  const view = botMessageView(message);
  return (
    <div className="chat-bubble chat-bubble-bot" data-type={String(message.type)}>
      {view.text && <p className="chat-text">{view.text}</p>}
      {view.attachment && (
        <p>
          <a href={view.attachment.url} target="_blank" rel="noreferrer">
            {view.attachment.name ?? `${view.attachment.kind} attachment`}
          </a>
        </p>
      )}
      {view.cards.map((card, index) => (
        <div key={index} className="chat-card">
          <strong>{card.title}</strong>
          {card.subtitle && <p>{card.subtitle}</p>}
          <Chips chips={card.chips} onChoose={onChoose} disabled={disabled} />
        </div>
      ))}
      <Chips chips={view.chips} onChoose={onChoose} disabled={disabled} />
    </div>
  );
}

function Chips({ chips, onChoose, disabled }: { chips: Chip[]; onChoose: (chip: Chip) => void; disabled: boolean }) {
  if (chips.length === 0) return null;
  return (
    <p className="chat-chips">
      {chips.map((chip, index) =>
        chip.url ? (
          <a key={index} className="chat-chip" href={chip.url} target="_blank" rel="noreferrer">
            {chip.title}
          </a>
        ) : chip.payload === undefined ? (
          <span key={index} className="chat-chip" title="A link the panel does not open">
            {chip.title}
          </span>
        ) : (
          <button key={index} type="button" className="chat-chip" disabled={disabled} title={`Sends the payload ${chip.payload}`} onClick={() => onChoose(chip)}>
            {chip.title}
          </button>
        ),
      )}
    </p>
  );
}
