// A chart of one value per day, drawn on the server as SVG (docs/admin.md "Dashboard"): no script, an accessible
// name and a one-sentence summary, the numbers in a table for whoever would rather read them, and a plain
// sentence instead of a flat chart when there is nothing to draw. Colours and sizes live in browser/admin.css.
import { AdminTable } from '../views/admin-table.js';
import { summarizeCounts, summarizeLevels, type DayValue } from './chart-scale.js';
import { CHART_HEIGHT, CHART_WIDTH, layoutDayChart, PLOT } from './day-chart-layout.js';

export interface DayChartProps {
  /** Unique on the page: the ids of the title and summary derive from it. */
  id: string;
  title: string;
  days: readonly DayValue[];
  /** `bars`: a count per day; `steps`: a level at the end of each day (a list's size). */
  kind: 'bars' | 'steps';
  noun: { one: string; many: string };
  /** The heading of the value column in the table of numbers. */
  valueLabel: string;
}

/** The sentence under the chart and in its accessible name. */
export function chartSummary(props: Pick<DayChartProps, 'days' | 'kind' | 'noun'>): string {
  return props.kind === 'bars' ? summarizeCounts(props.days, props.noun) : summarizeLevels(props.days, props.noun);
}

export function DayChart(props: DayChartProps) {
  const { id, title, days, kind, valueLabel } = props;
  const summary = chartSummary(props);
  const empty = days.every((day) => day.value === 0);
  if (empty) {
    return (
      <figure class="admin-chart">
        <figcaption class="admin-chart-title">{title}</figcaption>
        <p class="admin-chart-empty">{kind === 'bars' ? summary : `No ${props.noun.many} in the last ${days.length} days`}</p>
      </figure>
    );
  }
  const layout = layoutDayChart(days);
  return (
    <figure class="admin-chart">
      <figcaption class="admin-chart-title" id={`${id}-summary`}>
        {title}: <strong>{summary}</strong>
      </figcaption>
      <svg class="admin-chart-svg" role="img" aria-labelledby={`${id}-summary`} viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} width={CHART_WIDTH} height={CHART_HEIGHT}>
        <title id={`${id}-title`}>{title}</title>
        {layout.gridlines.map((line) => (
          <g key={line.value}>
            <line class="admin-chart-grid" x1={PLOT.left} x2={PLOT.left + PLOT.width} y1={line.y} y2={line.y} />
            <text class="admin-chart-label" x={PLOT.left - 6} y={line.y + 4} text-anchor="end">
              {line.value}
            </text>
          </g>
        ))}
        {kind === 'bars' &&
          layout.bars.map((bar) =>
            bar.value === 0 ? null : (
              <g key={bar.day}>
                <rect class="admin-chart-bar" x={bar.x} y={bar.y} width={bar.width} height={bar.height}>
                  <title>{`${bar.day}: ${bar.value}`}</title>
                </rect>
                <text class="admin-chart-value" x={bar.x + bar.width / 2} y={bar.y - 3} text-anchor="middle">
                  {bar.value}
                </text>
              </g>
            ),
          )}
        {kind === 'steps' && <path class="admin-chart-line" d={layout.stepPath} />}
        <line class="admin-chart-axis" x1={PLOT.left} x2={PLOT.left + PLOT.width} y1={PLOT.bottom} y2={PLOT.bottom} />
        {layout.dateLabels.map((label) => (
          <text key={label.text} class="admin-chart-label" x={label.x} y={PLOT.bottom + 18} text-anchor="middle">
            {label.text}
          </text>
        ))}
      </svg>
      <details class="admin-chart-numbers">
        <summary>The numbers</summary>
        <AdminTable caption={title} headings={['Day', valueLabel]}>
          {days.map((day) => (
            <tr key={day.day}>
              <td>{day.day}</td>
              <td>{day.value}</td>
            </tr>
          ))}
        </AdminTable>
      </details>
    </figure>
  );
}
