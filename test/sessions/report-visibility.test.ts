import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import { mayRead, mayShowIn, type ReportPlace } from '../../src/sessions/report-visibility.js';

const MEMBERS: Record<string, string[]> = {
  GPRIV: ['UANN', 'UBOB'],
  CPUB: ['UANN', 'UBOB', 'UCAT'],
  CSMALL: ['UANN'],
  DBOB: ['UBOB', 'UBOT'],
};
const membersOf = async (channel: string) => {
  if (channel === 'CDOWN') throw new Error('Slack is down');
  return new Set(MEMBERS[channel] ?? []);
};
const canRead = async (channel: string, user: string) => (await membersOf(channel)).has(user);
const report = (channelId: string, requester = 'UANN', teamId = 'T1'): ReportPlace => ({
  origin: 'slack',
  teamId,
  channelId,
  requester,
});
const here = (channelId: string, teamId = 'T1') => ({ channelId, teamId });
const show = (r: ReportPlace, c: { channelId: string; teamId: string }) =>
  mayShowIn(r, c, membersOf, silentLogger);

describe('the report visibility policy', () => {
  it('shows a report only where everyone may read it', async () => {
    // Its own conversation, always; a conversation whose every member may read it.
    expect(await show(report('GPRIV'), here('GPRIV'))).toBe(true);
    expect(await show(report('CPUB'), here('CSMALL'))).toBe(true);
    // A private channel's report in a wider one, never; a DM's anywhere but its DM, never.
    expect(await show(report('GPRIV'), here('CPUB'))).toBe(false);
    expect(await show(report('DANN'), here('CSMALL'))).toBe(false);
    expect(await show(report('DANN'), here('DANN'))).toBe(true);
    // Another workspace's, a terminal's, or one whose membership cannot be read: not shown.
    expect(await show(report('GPRIV', 'UANN', 'T2'), here('GPRIV'))).toBe(false);
    expect(await show({ ...report('GPRIV'), origin: 'cli' }, here('GPRIV'))).toBe(false);
    expect(await show(report('CDOWN'), here('CSMALL'))).toBe(false);
    expect(await show(report('CPUB'), here('CEMPTY'))).toBe(false);
  });

  it('lets a person read a channel’s report as a member, a DM’s as its requester, another workspace’s never', async () => {
    const bob = { userId: 'UBOB', teamId: 'T1' };
    expect(await mayRead(report('GPRIV'), bob, canRead, silentLogger)).toBe(true);
    expect(await mayRead(report('CSMALL'), bob, canRead, silentLogger)).toBe(false);
    expect(await mayRead(report('DANN'), bob, canRead, silentLogger)).toBe(false);
    expect(await mayRead(report('DBOB', 'UBOB'), bob, canRead, silentLogger)).toBe(true);
    expect(await mayRead(report('GPRIV', 'UANN', 'T2'), bob, canRead, silentLogger)).toBe(false);
    expect(await mayRead(report('CDOWN'), bob, canRead, silentLogger)).toBe(false);
  });
});
