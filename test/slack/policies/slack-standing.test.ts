import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import { slackApiFor } from '../../../src/slack/api/slack-clients.js';
import { SlackRateLimits } from '../../../src/slack/api/slack-rate-limits.js';
import { slackStanding } from '../../../src/slack/policies/slack-standing.js';
import { type FakeSlack, fakeSlackServer } from '../../fakes/fake-slack-server.js';
import { BOT_TOKEN } from '../../helpers/slack-requests.js';

describe("a person's standing for channel policies, asked of Slack", () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await fakeSlackServer();
    slack.admins.add('UADMIN');
    slack.groups.set('SDESIGN', ['UANN', 'UBOB']);
  });
  afterAll(() => slack.close());

  it('reads admins from users.info and group members from usergroups.users.list, once a minute per group', async () => {
    let now = 0;
    const api = slackApiFor('listeners', BOT_TOKEN, new SlackRateLimits(), silentLogger, slack.apiUrl);
    const standing = slackStanding(api, () => now);
    const who = (userId: string) => ({ teamId: 'T1', userId });
    expect(await standing(who('UANN'), ['SDESIGN'])).toEqual({ admin: false, groups: ['SDESIGN'] });
    expect(await standing(who('UADMIN'), ['SDESIGN'])).toEqual({ admin: true, groups: [] });
    expect(await standing(who('UCAROL'), ['SDESIGN'])).toEqual({ admin: false, groups: [] });
    const asked = () => slack.calls.filter((c) => c.method === 'usergroups.users.list').length;
    expect(asked()).toBe(1);
    slack.groups.set('SDESIGN', ['UCAROL']);
    now = 61_000;
    expect(await standing(who('UCAROL'), ['SDESIGN'])).toEqual({ admin: false, groups: ['SDESIGN'] });
    expect(asked()).toBe(2);
    // A group Slack does not know is an error the policy gate turns into a sentence, not "not a member".
    await expect(standing(who('UANN'), ['SGONE'])).rejects.toThrow(/no_such_subteam/);
  });
});
