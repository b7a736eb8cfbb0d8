/**
 * One small chart of the statistics screen (uPlot, loaded with this screen only: docs/decisions/029): the
 * columns of one measure of a group, period by period, oldest left. The current period (still going on) is
 * shaded and labelled; the chart of the time from report to decision draws the 7-day line. A chart is never
 * the only way to the numbers: it has a text label, and the same numbers are in the tables beside it.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { StatisticsMeasure, StatisticsUnit } from '#lib/schemas/statistics.ts';
import { SEVEN_DAYS_HOURS, formatFigure, formatTick, shortPeriod, valueOf, type FigureColumn, type FigureRow, type Locale } from './statistics-format.ts';

/** Colours and dashes tell the lines apart, so the chart reads without colour vision too. */
const LINES: { stroke: string; dash?: number[] }[] = [
  { stroke: '#1d4ed8' },
  { stroke: '#b91c1c', dash: [6, 4] },
  { stroke: '#047857', dash: [2, 3] },
  { stroke: '#7c3aed', dash: [10, 3, 2, 3] },
  { stroke: '#b45309', dash: [12, 6] },
  { stroke: '#0f766e', dash: [4, 2, 4, 6] },
];

const HEIGHT = 190;

type Props = {
  label: string;
  unit: StatisticsUnit;
  locale: Locale;
  measure: StatisticsMeasure;
  columns: (FigureColumn & { label: string })[];
  rows: FigureRow[];
  /** The name of a period (the legend's first entry: "Day", "Month"). */
  periodLabel: string;
  /** The words on the shaded current period ("still going on"). */
  partialLabel: string;
  /** The words on the 7-day line, when the chart draws it. */
  limitLabel?: string;
};

export function FigureChart({ label, unit, locale, measure, columns, rows, periodLabel, partialLabel, limitLabel }: Props) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || rows.length === 0) return;
    const xs = rows.map((_row, index) => index);
    const series = columns.map((column) => rows.map((row) => valueOf(row, column.key)));
    const highest = Math.max(0, ...series.flat().filter((value): value is number => value !== null));
    const top = measure === 'share' ? 1 : Math.max(limitLabel ? SEVEN_DAYS_HOURS * 1.25 : 0, measure === 'ore' ? 10_000 : 4, highest * 1.05);
    const width = () => Math.max(260, element.clientWidth);

    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        scales: { x: { time: false }, y: { range: () => [0, top] } },
        axes: [
          {
            space: 60,
            incrs: unit === 'day' ? [1, 2, 7, 14, 28] : [1, 2, 3, 6, 12],
            values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) && rows[tick] ? shortPeriod(rows[tick].period, unit) : '')),
          },
          { size: measure === 'ore' ? 80 : 56, values: (_u, ticks) => ticks.map((tick) => formatTick(tick, measure, locale)) },
        ],
        series: [
          { label: periodLabel, value: (_u, index) => (index === null || !rows[index] ? '' : shortPeriod(rows[index].period, unit)) },
          ...columns.map((column, index) => {
            const line = LINES[index % LINES.length]!;
            // A few values among unknown ones (public adverts counted only lately) are drawn as points too.
            const known = series[index]!.filter((value) => value !== null).length;
            return {
              label: column.label,
              stroke: line.stroke,
              width: 2,
              points: { show: known <= 10, size: 6, fill: line.stroke },
              ...(line.dash ? { dash: line.dash } : {}),
              value: (_u: uPlot, value: number | null) => formatFigure(value, measure, locale),
            };
          }),
        ],
        hooks: {
          draw: [
            (u) => {
              const { ctx, bbox } = u;
              const ratio = window.devicePixelRatio || 1;
              ctx.save();
              // The current period: shaded from half a step before it to the right edge, and labelled.
              const last = rows.length - 1;
              const start = last > 0 ? u.valToPos(last - 0.5, 'x', true) : bbox.left;
              ctx.fillStyle = 'rgba(100, 116, 139, 0.14)';
              ctx.fillRect(start, bbox.top, bbox.left + bbox.width - start, bbox.height);
              ctx.font = `${11 * ratio}px system-ui, sans-serif`;
              // The 7-day line.
              if (limitLabel) {
                const y = u.valToPos(SEVEN_DAYS_HOURS, 'y', true);
                ctx.strokeStyle = '#a16207';
                ctx.lineWidth = 2 * ratio;
                ctx.setLineDash([4 * ratio, 4 * ratio]);
                ctx.beginPath();
                ctx.moveTo(bbox.left, y);
                ctx.lineTo(bbox.left + bbox.width, y);
                ctx.stroke();
                ctx.fillStyle = '#854d0e';
                ctx.textAlign = 'left';
                ctx.fillText(limitLabel, bbox.left + 4 * ratio, y + 13 * ratio);
              }
              // The current period's words, on top of everything.
              ctx.textAlign = 'right';
              const text = ctx.measureText(partialLabel).width;
              ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
              ctx.fillRect(bbox.left + bbox.width - text - 6 * ratio, bbox.top + 1 * ratio, text + 5 * ratio, 15 * ratio);
              ctx.fillStyle = '#334155';
              ctx.fillText(partialLabel, bbox.left + bbox.width - 3 * ratio, bbox.top + 12 * ratio);
              ctx.restore();
            },
          ],
        },
      },
      [xs, ...series],
      element,
    );
    const resize = () => plot.setSize({ width: width(), height: HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [unit, locale, measure, columns, rows, periodLabel, partialLabel, limitLabel]);
  return <div ref={holder} className="w-full min-w-0" role="img" aria-label={label} data-statistics-chart={measure} />;
}
