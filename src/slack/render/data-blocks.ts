import type { KnownBlock } from '@slack/web-api';
import type { PhrasingContent, RootContent, Table } from 'mdast';
import { readMarkdown } from '../../ports/markdown/read-markdown.js';
import type { FinalReport, ReportChart } from '../../ports/report.js';
import { context, section, sections } from './messages.js';
import { type CitedSource, modelMrkdwn } from './mrkdwn.js';

/**
 * Slack's limits on the 2026 data blocks (docs.slack.dev): a data
 * visualization's title 50 characters, 20 categories, labels 20 characters,
 * two a message; a data table 1 header and 1–100 rows, 20 columns, 10,000
 * characters across its cells (the table block's figure, which the data
 * table's page cuts off at; kept to be safe).
 */
export const DATA_LIMITS = {
  chartTitle: 50,
  categories: 20,
  label: 20,
  charts: 2,
  rows: 100,
  columns: 20,
  tableChars: 10_000,
};

/** One chart as a data visualization block, with a line under it naming its sources (linked) and what was left out. */
export function chartBlocks(chart: ReportChart, sources: readonly CitedSource[]): KnownBlock[] {
  const points = chart.points.slice(0, DATA_LIMITS.categories);
  const labels = points.map((p) => p.label.slice(0, DATA_LIMITS.label));
  const series = [
    {
      name: chart.measure.slice(0, DATA_LIMITS.label) || 'Value',
      data: points.map((p, i) => ({ label: labels[i]!, value: p.value })),
    },
  ];
  const block = {
    type: 'data_visualization',
    title: chart.title.slice(0, DATA_LIMITS.chartTitle),
    chart: {
      type: chart.kind,
      series,
      axis_config: { categories: labels, y_label: chart.unit.slice(0, DATA_LIMITS.chartTitle) },
    },
  };
  return [block as unknown as KnownBlock, context(chartNote(chart, sources))];
}

/** The chart as text, for a client or workspace that refuses the block: each point with its citation. */
export function chartText(chart: ReportChart, sources: readonly CitedSource[]): string {
  const points = chart.points.map((p) => `${p.label}: ${p.value} [${p.source}]`).join(' · ');
  return modelMrkdwn(`:bar_chart: **${chart.title}** (${chart.unit}): ${points}`, sources);
}

function chartNote(chart: ReportChart, sources: readonly CitedSource[]): string {
  const cited = [...new Set(chart.points.map((p) => p.source))].map((n) => `[${n}]`).join(' ');
  const left = chart.dropped
    ? ` · ${chart.dropped} ${chart.dropped === 1 ? 'point' : 'points'} left out: not in ${chart.dropped === 1 ? 'its' : 'their'} cited source`
    : '';
  return modelMrkdwn(`${chart.unit} · from ${cited}${left}`, sources);
}

/**
 * The report's first comparison table (not its Figures, which its charts
 * show) as a data table block, when it fits Slack's limits; citations in
 * cells stay numbered and link to their sources. Undefined when there is
 * none or it does not fit (the canvas and report.md have it either way).
 */
export function firstTableBlock(markdown: string, sources: readonly CitedSource[]): KnownBlock | undefined {
  const found = firstTable(readMarkdown(markdown).children);
  if (!found) return undefined;
  const rows = found.table.children.map((row) => row.children.map((cell) => cellText(cell.children)));
  const width = rows[0]?.length ?? 0;
  const chars = rows.flat().reduce((sum, c) => sum + c.length, 0);
  if (
    rows.length < 2 ||
    rows.length > DATA_LIMITS.rows + 1 ||
    width > DATA_LIMITS.columns ||
    chars > DATA_LIMITS.tableChars
  )
    return undefined;
  const urls = new Map(sources.flatMap((s) => (s.url ? [[s.n, s.url] as const] : [])));
  const block = {
    type: 'data_table',
    caption: (found.caption ?? 'Table from the report').slice(0, 200),
    page_size: Math.min(10, rows.length - 1),
    rows: rows.map((row, i) =>
      Array.from({ length: width }, (_, c) => (i === 0 ? raw(row[c] ?? '') : bodyCell(row[c] ?? '', urls))),
    ),
  };
  return block as unknown as KnownBlock;
}

/** The table itself as text (one line per row, citations linked), for a client that refuses the block. */
export function tableText(markdown: string, sources: readonly CitedSource[]): string | undefined {
  const found = firstTable(readMarkdown(markdown).children);
  if (!found?.table.position) return undefined;
  const { start, end } = found.table.position;
  return modelMrkdwn(markdown.slice(start.offset, end.offset), sources);
}

function firstTable(nodes: RootContent[]): { table: Table; caption?: string } | undefined {
  let heading: string | undefined;
  for (const node of nodes) {
    if (node.type === 'heading') heading = cellText(node.children);
    if (node.type === 'table' && heading !== 'Figures') return { table: node, caption: heading };
  }
  return undefined;
}

function cellText(nodes: PhrasingContent[]): string {
  return nodes
    .map((n) => ('value' in n ? n.value : 'children' in n ? cellText(n.children as PhrasingContent[]) : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

const raw = (text: string) => ({ type: 'raw_text', text: text || '—' });

/** A number as a sortable number; text with citations as rich text whose [n] link to their sources. */
function bodyCell(text: string, urls: Map<number, string>) {
  const plain = text.replace(/[,\s]/g, '');
  if (/^-?\d+(\.\d+)?$/.test(plain)) return { type: 'raw_number', value: Number(plain), text };
  if (!/\[\d+\]/.test(text)) return raw(text);
  const elements = text.split(/(\[\d+\])/).flatMap((part) => {
    if (!part) return [];
    const n = /^\[(\d+)\]$/.exec(part);
    const url = n ? urls.get(Number(n[1])) : undefined;
    return url ? [{ type: 'link', url, text: part }] : [{ type: 'text', text: part }];
  });
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] };
}

/**
 * The report's charts (at most two) and its first comparison table, as
 * Slack's data blocks, and the same as text for a client that refuses them.
 */
export function dataBlocks(report: FinalReport): { blocks: KnownBlock[]; asText: KnownBlock[] } | undefined {
  const charts = (report.charts ?? []).slice(0, DATA_LIMITS.charts);
  const table = firstTableBlock(report.markdown, report.sources);
  if (!charts.length && !table) return undefined;
  const tableAsText = table ? tableText(report.markdown, report.sources) : undefined;
  return {
    blocks: [...charts.flatMap((c) => chartBlocks(c, report.sources)), ...(table ? [table] : [])],
    asText: [
      ...charts.map((c) => section(chartText(c, report.sources))),
      ...(tableAsText ? sections(tableAsText) : []),
    ],
  };
}
