import { describe, expect, it } from 'vitest';
import { foreignWorkspace, requestTeam } from '../../src/slack/workspace-check.js';

describe('the workspace of a request', () => {
  it('is read from commands, events and interactions, and not from org-wide installs', () => {
    expect(requestTeam({ team_id: 'T1', command: '/research' })).toBe('T1');
    expect(requestTeam({ type: 'event_callback', team_id: 'T2', is_enterprise_install: false })).toBe('T2');
    expect(requestTeam({ type: 'block_actions', team: { id: 'T3' } })).toBe('T3');
    expect(requestTeam({ team_id: 'T4', is_enterprise_install: 'true' })).toBeUndefined();
    expect(requestTeam({ type: 'url_verification', challenge: 'x' })).toBeUndefined();
    expect(requestTeam('T1')).toBeUndefined();
  });

  it('refuses only a request that names another workspace than the installed one', () => {
    expect(foreignWorkspace({ team_id: 'T2' }, 'T1')).toBe(
      'refused a request from workspace T2: this app is installed in T1',
    );
    expect(foreignWorkspace({ team_id: 'T1' }, 'T1')).toBeUndefined();
    expect(foreignWorkspace({ team_id: 'T2' }, undefined)).toBeUndefined();
  });
});
