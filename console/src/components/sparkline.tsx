/** A small trend as inline SVG (the first screen carries no chart library). */
export function Sparkline(props: { values: number[]; label: string }) {
  const width = 120
  const height = 24
  const max = Math.max(1, ...props.values)
  const step = props.values.length > 1 ? width / (props.values.length - 1) : width
  const points = props.values.map((value, index) => `${(index * step).toFixed(1)},${(height - (value / max) * (height - 2) - 1).toFixed(1)}`).join(' ')
  return (
    <svg class="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={props.label}>
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  )
}
