import { useEffect, useRef } from 'preact/hooks'
import type { TimeseriesAnswer } from '../api/types.js'

/**
 * Passed and failed evaluations per bucket, drawn by uPlot. The library is loaded when a chart is
 * first shown (a chunk of its own), so the first screen does not carry it.
 */
export function BucketChart(props: { series: TimeseriesAnswer; label: string }) {
  const container = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = container.current
    if (!element) return
    let disposed = false
    let chart: { destroy(): void } | undefined
    void import('uplot').then(({ default: UPlot }) => {
      if (disposed) return
      const style = getComputedStyle(element)
      const times = props.series.buckets.map((bucket) => Date.parse(bucket.start) / 1000)
      chart = new UPlot(
        {
          width: Math.max(280, element.clientWidth),
          height: 260,
          series: [
            {},
            { label: 'passed', stroke: style.getPropertyValue('--pass').trim() || 'green', width: 2 },
            { label: 'failed', stroke: style.getPropertyValue('--fail').trim() || 'red', width: 2 },
          ],
          axes: [{ stroke: style.color }, { stroke: style.color }],
        },
        [times, props.series.buckets.map((bucket) => bucket.passed), props.series.buckets.map((bucket) => bucket.failed)],
        element,
      )
      element.dataset.drawn = 'true'
    })
    return () => {
      disposed = true
      chart?.destroy()
      delete element.dataset.drawn
    }
  }, [props.series])
  const failed = props.series.buckets.reduce((sum, bucket) => sum + bucket.failed, 0)
  const passed = props.series.buckets.reduce((sum, bucket) => sum + bucket.passed, 0)
  return <div class="chart" ref={container} role="img" aria-label={`${props.label}: ${passed} passed and ${failed} failed evaluations`} data-passed={passed} data-failed={failed} />
}
