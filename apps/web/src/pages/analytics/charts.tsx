import { useId } from 'react';

export interface Point {
  label: string;
  value: number;
}

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { top: 12, right: 12, bottom: 28, left: 72 };
const format = (value: number) => value.toLocaleString(undefined, { maximumFractionDigits: 1 });

/**
 * A small chart drawn by hand in SVG (no chart library: the bundle budget). Screen readers get the title and the
 * numbers as a table; sighted readers can open the same table under the chart.
 */
function Chart({ title, points, kind }: { title: string; points: Point[]; kind: 'line' | 'bars' }) {
  const id = useId();
  if (points.length === 0) return <p className="muted">{title}: no numbers yet.</p>;
  const max = Math.max(1, ...points.map((point) => point.value));
  const min = kind === 'bars' ? 0 : Math.min(0, ...points.map((point) => point.value));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => PAD.left + (points.length === 1 ? innerW / 2 : (index / (points.length - 1)) * innerW);
  const y = (value: number) => PAD.top + innerH - ((value - min) / (max - min || 1)) * innerH;
  const slot = innerW / points.length;
  const labelEvery = Math.ceil(points.length / 6);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-table`}>
        <title id={`${id}-title`}>{title}</title>
        {[...new Set([min, Math.round((min + max) / 2), max])].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className="chart-label">
              {format(tick)}
            </text>
          </g>
        ))}
        {kind === 'line' ? (
          <>
            <polyline className="chart-line" points={points.map((point, index) => `${x(index)},${y(point.value)}`).join(' ')} />
            {points.map((point, index) => (
              <circle key={point.label} className="chart-dot" cx={x(index)} cy={y(point.value)} r={3} />
            ))}
          </>
        ) : (
          points.map((point, index) => (
            <rect
              key={point.label}
              className="chart-bar"
              x={PAD.left + index * slot + slot * 0.15}
              width={slot * 0.7}
              y={y(point.value)}
              height={Math.max(0, y(0) - y(point.value))}
            />
          ))
        )}
        {points.map((point, index) =>
          index % labelEvery === 0 ? (
            <text
              key={point.label}
              x={kind === 'line' ? x(index) : PAD.left + index * slot + slot / 2}
              y={HEIGHT - 8}
              textAnchor="middle"
              className="chart-label"
            >
              {point.label.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <details>
          <summary>{title}: the numbers</summary>
          <table id={`${id}-table`}>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.label}>
                  <td>{point.label}</td>
                  <td>{format(point.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

export const LineChart = (props: { title: string; points: Point[] }) => <Chart {...props} kind="line" />;
export const BarChart = (props: { title: string; points: Point[] }) => <Chart {...props} kind="bars" />;
