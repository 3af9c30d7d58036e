import { describe, expect, it } from 'vitest';
import { movesTo } from '../../../src/sessions/records/session-status.js';

describe('movesTo', () => {
  it('gives the statuses a session may reach a status from, by the one table', () => {
    expect(movesTo('queued')).toEqual(['clarifying']);
    expect(movesTo('running', ['queued', 'reviewing'])).toEqual(['queued', 'reviewing']);
    expect(movesTo('undeliverable')).toEqual(['delivering']);
  });

  it('refuses a move the table does not allow, so no write can guard itself differently', () => {
    expect(() => movesTo('queued', ['done'])).toThrow('no move from done to queued');
  });
});
