import type { SlackFeature } from './slack-feature.js';
import type { SlackSessions } from './slack-sessions.js';

/** `/research status`, `cancel` and `usage`: a person's own research, answered privately. */
export function sessionCommands(service: SlackSessions): SlackFeature {
  return {
    name: 'session commands',
    subcommands: [
      { phrase: 'status', run: (c) => service.status(c.userId, c.teamDomain) },
      { phrase: 'cancel', run: (c) => service.cancelLatest(c.userId) },
      { phrase: 'usage', run: (c) => service.usage(c.userId, c.teamId) },
    ],
  };
}
