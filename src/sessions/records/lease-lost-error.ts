import { AppError } from '../../ports/errors.js';

/** Another worker holds this session now; whoever gets this must stop working on it at once. */
export class LeaseLostError extends AppError {
  readonly fault = 'internal';
  constructor(sessionId: string) {
    super('lease_lost', `Session ${sessionId} is now held by another worker.`);
  }
}
