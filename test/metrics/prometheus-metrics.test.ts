import { describe, expect, it } from 'vitest';
import { prometheusMetrics } from '../../src/metrics/prometheus-metrics.js';
import type { Logger } from '../../src/ports/logger.js';

describe('prometheusMetrics', () => {
  it('still answers while the database cannot be read: its series left out, database_up 0, one warning per failure', async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      info() {},
      error() {},
      warn: (_obj, msg) => warnings.push(msg ?? ''),
      child: () => logger,
    };
    const metrics = prometheusMetrics(logger);
    let down = true;
    metrics.scrapeFrom({
      sessionsByStatus: async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return { done: 3, running: 1 };
      },
      // A frozen database: the scrape gives up on it rather than hang.
      queueDepth: () => (down ? new Promise<number>(() => {}) : Promise.resolve(2)),
      outboxPending: async () => 0,
      active: () => 1,
    });
    metrics.slackCall('chat.update', 'rate_limited');
    const first = await metrics.render();
    await metrics.render();
    expect(first).toContain('deep_research_database_up 0');
    expect(first).not.toContain('deep_research_sessions{');
    expect(first).toContain('deep_research_queue_depth Nan');
    expect(first).toContain('deep_research_active_sessions 1');
    expect(first).toContain(
      'deep_research_slack_api_calls_total{method="chat.update",outcome="rate_limited"} 1',
    );
    expect(warnings.filter((w) => w.startsWith('metrics:'))).toHaveLength(2);
    down = false;
    const after = await metrics.render();
    expect(after).toContain('deep_research_database_up 1');
    expect(after).toContain('deep_research_sessions{status="done"} 3');
    expect(after).toContain('deep_research_queue_depth 2');
  }, 20_000);
});
