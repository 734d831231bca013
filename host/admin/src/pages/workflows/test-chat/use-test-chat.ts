import { useRef, useState } from 'react';
import { api } from '../../../api/api-client.ts';
import { errorMessage } from '../../../api/api-error.ts';
import type { TestRun, Workflow } from '../../../api/api-types.ts';
import { chatHistory } from './chat-history.ts';
import type { ChatTurn, TurnInput } from './chat-turn-types.ts';

export interface TestChatRequest {
  workflow: Workflow;
  /** What the editor shows: run as an unsaved draft when it differs from the shown version. */
  yaml: string;
  /** The test owner's name (memory owner `test:<name>`); '' for the caller's own. */
  ownerId: string;
  onFinished?: ((run: TestRun) => void) | undefined;
}

export interface TestChat {
  turns: ChatTurn[];
  running: boolean;
  send(input: TurnInput): Promise<void>;
  /** Starts over: the transcript is cleared, so the next turn has no history (memory stays). */
  clear(): void;
}

/**
 * The test conversation: each turn is a test run of what the editor shows at that moment, sent
 * with the earlier turns as its `history`. The transcript lives here only; the server keeps none.
 */
export function useTestChat(request: TestChatRequest): TestChat {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [running, setRunning] = useState(false);
  const nextId = useRef(1);
  // A reply that lands after "New conversation" belongs to the cleared chat: drop it.
  const generation = useRef(0);

  const send = async (input: TurnInput) => {
    const { workflow, yaml, ownerId, onFinished } = request;
    const isDraft = yaml !== workflow.yaml;
    const turn: ChatTurn = { id: nextId.current++, input, ran: isDraft ? 'the unsaved draft' : `v${workflow.version}` };
    const started = generation.current;
    const history = chatHistory(turns);
    setTurns((previous) => [...previous, turn]);
    setRunning(true);
    const finish = (update: Partial<ChatTurn>) => {
      if (generation.current !== started) return;
      setTurns((previous) => previous.map((each) => (each.id === turn.id ? { ...each, ...update } : each)));
      setRunning(false);
    };
    try {
      const body = { input, history, ...(isDraft ? { yaml } : { version: workflow.version }), ...(ownerId ? { ownerId } : {}) };
      const run = await api.post<TestRun>(`/api/workflows/${workflow.id}/runs`, body);
      finish({ run });
      if (generation.current === started) onFinished?.(run);
    } catch (error) {
      finish({ error: errorMessage(error) });
    }
  };

  const clear = () => {
    generation.current += 1;
    setTurns([]);
    setRunning(false);
  };
  return { turns, running, send, clear };
}
