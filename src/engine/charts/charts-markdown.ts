import type { ReportChart } from '../../ports/report.js';

/**
 * The charts as the report's last section, a table each with the same
 * citations (canvases, report.md and terminals show charts as tables): the
 * label, the figure in its unit, the source's number.
 */
export function chartsMarkdown(charts: ReportChart[]): string {
  if (!charts.length) return '';
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const tables = charts.map((chart) => {
    const dropped = chart.dropped
      ? `\n\n_${chart.dropped} proposed ${chart.dropped === 1 ? 'point was' : 'points were'} left out: ${chart.dropped === 1 ? 'its figure is' : 'their figures are'} not in the source cited for ${chart.dropped === 1 ? 'it' : 'them'}._`
      : '';
    const rows = chart.points.map((p) => `| ${cell(p.label)} | ${figure(p.value)} | [${p.source}] |`);
    return (
      [
        `**${cell(chart.title)}** (${cell(chart.unit)})`,
        '',
        `| ${chart.kind === 'line' ? 'When' : 'What'} | ${cell(chart.measure)} (${cell(chart.unit)}) | Source |`,
        '| --- | ---: | --- |',
        ...rows,
      ].join('\n') + dropped
    );
  });
  return `## Figures\n\n${tables.join('\n\n')}`;
}

/** A figure as the report gave it, without float noise. */
export function figure(value: number): string {
  return String(Number(value.toPrecision(12)));
}
