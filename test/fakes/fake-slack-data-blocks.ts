/**
 * Slack's 2026 data blocks as its reference documents them (docs.slack.dev:
 * data-visualization-block, data-table-block), checked as Slack checks them:
 * the reason a message with one would be refused (`invalid_blocks`), or undefined.
 */
export function dataBlockProblem(blocks: Record<string, unknown>[]): string | undefined {
  const charts = blocks.filter((b) => b.type === 'data_visualization');
  if (charts.length > 2) return 'more than two data visualization blocks in a message';
  for (const block of charts) {
    const problem = chartProblem(block);
    if (problem) return problem;
  }
  for (const block of blocks.filter((b) => b.type === 'data_table')) {
    const problem = tableProblem(block);
    if (problem) return problem;
  }
  return undefined;
}

type Chart = {
  type?: string;
  segments?: { label?: unknown; value?: unknown }[];
  series?: { name?: unknown; data?: { label?: unknown; value?: unknown }[] }[];
  axis_config?: { categories?: unknown[]; x_label?: unknown; y_label?: unknown };
};

function chartProblem(block: Record<string, unknown>): string | undefined {
  const title = block.title;
  if (typeof title !== 'string' || !title || title.length > 50) return 'a chart title of 1–50 characters';
  const chart = block.chart as Chart | undefined;
  const label = (v: unknown) => typeof v === 'string' && v.length >= 1 && v.length <= 20;
  const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if (chart?.type === 'pie') {
    const segments = chart.segments ?? [];
    if (segments.length < 1 || segments.length > 12) return 'a pie of 1–12 segments';
    return segments.every((s) => label(s.label) && finite(s.value) && (s.value as number) > 0)
      ? undefined
      : 'pie segments with labels and positive values';
  }
  if (!['bar', 'line', 'area'].includes(chart?.type ?? '')) return 'a chart type of bar, line, area or pie';
  const categories = chart?.axis_config?.categories ?? [];
  if (categories.length < 1 || categories.length > 20 || !categories.every(label))
    return '1–20 categories of 1–20 characters';
  for (const axis of [chart?.axis_config?.x_label, chart?.axis_config?.y_label])
    if (axis !== undefined && (typeof axis !== 'string' || axis.length > 50))
      return 'axis labels of 50 characters';
  const series = chart?.series ?? [];
  if (series.length < 1 || series.length > 12) return '1–12 series';
  if (new Set(series.map((s) => s.name)).size !== series.length || !series.every((s) => label(s.name)))
    return 'uniquely named series';
  for (const s of series) {
    const data = s.data ?? [];
    if (
      data.length !== categories.length ||
      data.some((d, i) => d.label !== categories[i] || !finite(d.value))
    )
      return 'one finite value per category in each series';
  }
  return undefined;
}

type Cell = { type?: string; text?: unknown; value?: unknown; elements?: unknown[] };

function tableProblem(block: Record<string, unknown>): string | undefined {
  if (typeof block.caption !== 'string') return 'a data table caption';
  const size = block.page_size;
  if (size !== undefined && (typeof size !== 'number' || size < 1 || size > 100))
    return 'a page size of 1–100';
  const rows = block.rows as Cell[][] | undefined;
  if (!Array.isArray(rows) || rows.length < 2 || rows.length > 101) return '2–101 rows';
  const width = rows[0]!.length;
  if (width < 1 || width > 20 || rows.some((r) => r.length !== width))
    return '1–20 columns, every row as long';
  let chars = 0;
  for (const [i, row] of rows.entries()) {
    for (const cell of row) {
      if (cell.type === 'raw_text') {
        if (typeof cell.text !== 'string' || !cell.text) return 'raw_text cells with text';
        chars += cell.text.length;
      } else if (cell.type === 'raw_number') {
        if (typeof cell.value !== 'number' || typeof cell.text !== 'string' || !cell.text)
          return 'raw_number cells';
        chars += cell.text.length;
      } else if (cell.type === 'rich_text') {
        if (i === 0) return 'no rich_text in the header row';
        chars += JSON.stringify(cell.elements ?? []).length / 4;
      } else return 'cells of raw_text, raw_number or rich_text';
    }
  }
  return chars > 10_000 ? 'at most 10,000 characters across cells' : undefined;
}
