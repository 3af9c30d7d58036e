import { LogLevel, type Logger as SlackLogger } from '@slack/web-api';
import type { Logger } from '../../ports/logger.js';

const ORDER: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

/**
 * Bolt's and the Web API client's logging, into ours (so LOG_LEVEL and JSON
 * lines apply to them too), from `level` up.
 */
export function slackLogger(log: Logger, component: string, initial = LogLevel.INFO): SlackLogger {
  const child = log.child({ component });
  let level = initial;
  const text = (msg: unknown[]) => msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ');
  const at = (l: LogLevel) => ORDER[l] >= ORDER[level];
  return {
    debug: () => {},
    info: (...msg) => at(LogLevel.INFO) && child.info({}, text(msg)),
    warn: (...msg) => at(LogLevel.WARN) && child.warn({}, text(msg)),
    error: (...msg) => child.error({}, text(msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
