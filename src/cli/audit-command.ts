import type { AuditQuery, AuditRow, AuditStore } from '../sessions/records/audit-store.js';
import type { Io } from './io.js';

const COLUMNS = [
  'at',
  'actor',
  'action',
  'team',
  'channel',
  'session',
  'schedule',
  'cost_usd',
  'detail',
] as const;

/**
 * `deep-research audit`: the audit trail, oldest first, filtered by time,
 * channel and person; as a table, CSV (`--csv`, for a spreadsheet) or JSON
 * lines. Run by whoever can open the database (an operator): the trail holds
 * ids and outcomes, never a secret or a page's text.
 */
export async function auditCommand(
  audit: Pick<AuditStore, 'list'>,
  query: AuditQuery,
  format: 'table' | 'csv' | 'json',
  io: Io,
): Promise<number> {
  const rows = await audit.list(query);
  if (format === 'json') {
    for (const row of rows) io.stdout.write(`${JSON.stringify(row)}\n`);
    return 0;
  }
  if (format === 'csv') {
    io.stdout.write(`${COLUMNS.join(',')}\n`);
    for (const row of rows) io.stdout.write(`${cells(row).map(csvCell).join(',')}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.stderr.write('Nothing in the audit trail matches.\n');
    return 0;
  }
  for (const row of rows) io.stdout.write(`${cells(row).filter(Boolean).join('  ')}\n`);
  return 0;
}

function cells(row: AuditRow): string[] {
  return [
    row.at.toISOString(),
    row.actor,
    row.action,
    row.teamId ?? '',
    row.channelId ?? '',
    row.sessionId ?? '',
    row.scheduleId ?? '',
    row.costUsd === null ? '' : row.costUsd.toFixed(4),
    Object.keys(row.detail).length ? JSON.stringify(row.detail) : '',
  ];
}

/** RFC 4180: quoted when it holds a comma, a quote or a line break; a leading =+-@ is kept from spreadsheets' formulas. */
function csvCell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** `--since`: a number of days ("7d"), or a date or time ("2026-11-01"). */
export function sinceOf(text: string | undefined, now: Date): Date | string | undefined {
  if (text === undefined) return undefined;
  const days = /^(\d+)d$/.exec(text);
  if (days) return new Date(now.getTime() - Number(days[1]) * 86_400_000);
  const at = new Date(text);
  return Number.isNaN(at.getTime())
    ? `--since must be a number of days ("7d") or a date ("2026-11-01"), not "${text}"`
    : at;
}
