import type { ReportMatch } from '../sessions/records/report-search.js';
import type { SlackApi } from './api/slack-api.js';

export interface ReportLinks {
  thread?: string;
  canvas?: string;
}

/** Where a listed report can be read: its thread and its canvas, as workspace addresses (none when unknown). */
export async function reportLinks(api: SlackApi, report: ReportMatch): Promise<ReportLinks> {
  const at = (to: Parameters<SlackApi['workspaceUrl']>[0]) => api.workspaceUrl(to).catch(() => undefined);
  const thread =
    report.channelId && report.threadTs
      ? await at({ channel: report.channelId, ts: report.threadTs })
      : undefined;
  const canvas = report.canvasId ? await at({ canvas: report.canvasId }) : undefined;
  return { ...(thread ? { thread } : {}), ...(canvas ? { canvas } : {}) };
}
