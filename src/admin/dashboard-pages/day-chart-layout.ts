// Where the marks of a day chart go (docs/admin.md "Dashboard"): bars for counts per day, a step line for a
// list's size at the end of each day, on one y scale with gridlines and a date under every fifth day. Pure:
// the values come in, coordinates in the SVG's own units go out, so tests read heights without a browser.
import { labelledDays, resolveYScale, shortDate, type DayValue, type YScale } from './chart-scale.js';

/** The SVG's size in its own units (it is scaled to the page's width by the stylesheet). */
export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 240;
const MARGIN = { left: 44, right: 12, top: 16, bottom: 36 };
export const PLOT = {
  left: MARGIN.left,
  top: MARGIN.top,
  width: CHART_WIDTH - MARGIN.left - MARGIN.right,
  height: CHART_HEIGHT - MARGIN.top - MARGIN.bottom,
  bottom: CHART_HEIGHT - MARGIN.bottom,
};

export interface Bar {
  day: string;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DayChartLayout {
  scale: YScale;
  /** Gridlines: the value written beside each and its height. */
  gridlines: Array<{ value: number; y: number }>;
  /** Date labels under the x axis, centred on their day. */
  dateLabels: Array<{ x: number; text: string }>;
  bars: Bar[];
  /** The step line through every day's value (an SVG path), for levels. */
  stepPath: string;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The positions of every mark for `days` (oldest first). */
export function layoutDayChart(days: readonly DayValue[]): DayChartLayout {
  const scale = resolveYScale(Math.max(0, ...days.map((day) => day.value)));
  const slot = days.length > 0 ? PLOT.width / days.length : PLOT.width;
  const yOf = (value: number) => round(PLOT.bottom - (value / scale.top) * PLOT.height);
  const bars = days.map((day, index) => {
    const y = yOf(day.value);
    return { day: day.day, value: day.value, x: round(PLOT.left + index * slot + slot * 0.15), y, width: round(slot * 0.7), height: round(PLOT.bottom - y) };
  });
  const steps = days.map((day, index) => `${index === 0 ? `M${PLOT.left} ${yOf(day.value)}` : `V${yOf(day.value)}`}H${round(PLOT.left + (index + 1) * slot)}`);
  return {
    scale,
    gridlines: scale.ticks.map((value) => ({ value, y: yOf(value) })),
    dateLabels: labelledDays(days.length).map((index) => ({ x: round(PLOT.left + (index + 0.5) * slot), text: shortDate(days[index]!.day) })),
    bars,
    stepPath: steps.join(''),
  };
}
