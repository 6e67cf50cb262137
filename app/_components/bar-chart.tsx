import { formatNumber } from "./format";
import { ColumnHeadings } from "./column-headings";

type Point = { day: string; value: number };

/** A round axis top with four whole-number steps (0, 3, 6, 9, 12 rather than 0, 2.5, 5, …). */
function niceMax(value: number): number {
  const rough = Math.max(1, value / 4);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  for (const step of [1, 2, 3, 5, 10])
    if (step * magnitude >= rough) return Math.max(4, Math.ceil(step * magnitude) * 4);
  return 40 * magnitude;
}

const dayLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/** A plain SVG bar chart of daily counts, with its numbers in a table for screen readers and the curious. */
export function BarChart({
  points,
  label,
  tone = "api",
  dailyLimit,
}: {
  points: Point[];
  label: string;
  tone?: "api" | "email";
  dailyLimit?: number;
}) {
  const width = 900;
  const height = 200;
  const pad = { top: 12, right: 8, bottom: 26, left: 40 };
  const max = niceMax(Math.max(...points.map((point) => point.value), dailyLimit ?? 0, 1));
  const innerWidth = width - pad.left - pad.right;
  const innerHeight = height - pad.top - pad.bottom;
  const slot = innerWidth / points.length;
  const barWidth = Math.max(2, slot * 0.68);
  const ticks = [0, max / 4, max / 2, (3 * max) / 4, max];
  const total = points.reduce((sum, point) => sum + point.value, 0);
  const peak = points.reduce((best, point) => (point.value > best.value ? point : best), points[0]);

  return (
    <figure style={{ margin: 0 }}>
      <svg
        className="chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${label}: ${formatNumber(total)} in the last ${points.length} days${peak && peak.value > 0 ? `, most on ${dayLabel.format(new Date(peak.day))} (${formatNumber(peak.value)})` : ""}.`}
      >
        {ticks.map((tick) => {
          const y = pad.top + innerHeight - (tick / max) * innerHeight;
          return (
            <g key={tick}>
              <line className="grid-line" x1={pad.left} x2={width - pad.right} y1={y} y2={y} />
              <text className="axis-label" x={pad.left - 8} y={y + 4} textAnchor="end">
                {formatNumber(Math.round(tick))}
              </text>
            </g>
          );
        })}
        {total === 0 && (
          <text
            className="axis-label"
            x={pad.left + innerWidth / 2}
            y={pad.top + innerHeight / 2}
            textAnchor="middle"
            style={{ fontSize: 13 }}
          >
            Nothing yet in the last {points.length} days
          </text>
        )}
        {points.map((point, index) => {
          const barHeight = (point.value / max) * innerHeight;
          const x = pad.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={point.day}>
              <rect
                className={`bar${tone === "email" ? " is-email" : ""}`}
                x={x}
                y={pad.top + innerHeight - barHeight}
                width={barWidth}
                height={Math.max(barHeight, point.value > 0 ? 1.5 : 0)}
                rx={2}
              >
                <title>{`${dayLabel.format(new Date(point.day))}: ${formatNumber(point.value)}`}</title>
              </rect>
              {(points.length - 1 - index) % 7 === 0 && (
                <text className="axis-label" x={pad.left + index * slot + slot / 2} y={height - 6} textAnchor="middle">
                  {dayLabel.format(new Date(point.day))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details className="small" style={{ marginTop: 8 }}>
        <summary className="muted" style={{ cursor: "pointer" }}>
          Show daily numbers
        </summary>
        <div className="table-wrap" style={{ maxHeight: 240, overflowY: "auto", marginTop: 8 }}>
          <table className="table">
            <caption className="visually-hidden">{label} per day</caption>
            <ColumnHeadings columns={["Day (UTC)", label]} />
            <tbody>
              {[...points].reverse().map((point) => (
                <tr key={point.day}>
                  <td>{point.day}</td>
                  <td>{formatNumber(point.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
