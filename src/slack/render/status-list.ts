import type { SessionRow } from '../../sessions/records/session-store.js';
import { safeText } from './mrkdwn.js';

export const USAGE = [
  '*Deep research* — ask a question and get a cited report in a thread.',
  '• `/research <question>` starts research in this channel (or mention me with the question, or DM me).',
  '• `/research status` lists your running and recent research.',
  '• `/research cancel` cancels your latest running research.',
  "• `/research usage` shows the tokens and cost of your research and this workspace's, today and this month.",
  '• `/research find <words>` finds earlier reports you may see.',
  '• `/research every <cadence> <question>` researches it again on a cadence in this channel (`every weekdays at 9:00 …`, `every monday at 8am …`); `/research schedules` lists them, to pause, resume, change or remove.',
  "• `/research settings` shows this channel's research policy (who may start research, its sources and budgets); workspace admins change it there.",
  '• `/research delete ID` deletes one of your reports (its messages, canvas and file too).',
  '• `/research kb add` (knowledge base admins, in a direct message with me) adds the files you just shared there to the team knowledge base; `/research kb list` shows what it holds.',
  '• `/research help` shows this message.',
].join('\n');

/** `/research status`: running and recent sessions, with their status, delivery note and thread link. */
export function statusList(active: SessionRow[], recent: SessionRow[], teamDomain: string): string {
  if (active.length === 0 && recent.length === 0) return `You have no research yet.\n\n${USAGE}`;
  const line = (s: SessionRow) => {
    const title = s.deleted ? '(deleted)' : safeText(s.question.replace(/\s+/g, ' ').slice(0, 80));
    const link =
      s.channelId && s.threadTs
        ? `<https://${teamDomain}.slack.com/archives/${s.channelId}/p${s.threadTs.replace('.', '')}|${title}>`
        : title;
    const note = s.deliveryNote ? ` (${safeText(s.deliveryNote)})` : '';
    return `• ${s.status}${note} · ${link} · ${s.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  };
  const parts = [];
  if (active.length) parts.push(`*Running*\n${active.map(line).join('\n')}`);
  if (recent.length) parts.push(`*Recent*\n${recent.map(line).join('\n')}`);
  return parts.join('\n\n');
}
