import { AppError } from '../../errors/app-error.ts';
import { isConnectionError } from '../../errors/postgres-errors.ts';
import type { SendClaimer } from '../../outbox/outbox-records.ts';
import type { StepWrite } from './run-end-sql.ts';
import type { RunRecords } from './run-records.ts';

/**
 * A step's record riding with the next step's first send: RunRecords.stepWithClaim commits both
 * in one statement, or neither. `fate` says how it went: `waiting` (no send was claimed), `carried`,
 * `stale` (a definition changed under its memory write), `failed` (the statement was refused and
 * rolled back) or `lost` (the connection failed: it may have committed).
 */
export class CarriedRecord {
  fate: 'waiting' | 'carried' | 'stale' | 'failed' | 'lost' = 'waiting';

  constructor(
    readonly write: StepWrite,
    private readonly records: RunRecords,
  ) {}

  readonly claimer: SendClaimer = async (claim, resendUnknown) => {
    let answer: Awaited<ReturnType<RunRecords['stepWithClaim']>>;
    try {
      answer = await this.records.stepWithClaim({ write: this.write, claim }, resendUnknown);
    } catch (failure) {
      this.fate = isConnectionError(failure) ? 'lost' : 'failed';
      throw failure;
    }
    if (!answer.memoryCurrent || !answer.claimed) {
      this.fate = 'stale';
      throw new AppError('BOT_ERR_WORKFLOW_MEMORY_CHANGED', 'A memory definition changed under the previous step\'s write; the step runs again once it is written', { sendKey: claim.sendKey });
    }
    this.fate = 'carried';
    await this.write.memory?.settle(answer.memoryWritten, true);
    return answer.claimed;
  };
}
