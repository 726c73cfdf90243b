// CPU time of processes as the operating system counts it (Linux /proc), so a benchmark can say
// how much CPU a fixed amount of work cost, whatever the machine's core count.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

let ticksPerSecond: number | undefined

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100
  return ticksPerSecond
}

interface ProcStat {
  parent: number
  /** utime + stime: the process's own CPU. */
  ownTicks: number
  /** cutime + cstime: CPU of its children that ended and were waited for. */
  reapedTicks: number
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces; what follows it starts at field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const at = (field: number) => Number(fields[field - 3])
    return { parent: at(4), ownTicks: at(14) + at(15), reapedTicks: at(16) + at(17) }
  } catch {
    return undefined
  }
}

/** CPU milliseconds used so far by one process (its threads included). */
export function processCpuMs(pid: number): number {
  const stat = readStat(pid)
  if (!stat) throw new Error(`no process ${pid}`)
  return (stat.ownTicks * 1000) / clockTicks()
}

/**
 * CPU milliseconds used so far by `root` and every process it started: the live children's own
 * time plus what ended children left in the root's cutime/cstime (PostgreSQL's postmaster waits
 * for each backend, so a connection that closed still counts).
 */
export function processTreeCpuMs(root: number): number {
  const rootStat = readStat(root)
  if (!rootStat) throw new Error(`no process ${root}`)
  let ticks = rootStat.ownTicks + rootStat.reapedTicks
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (stat?.parent === root) ticks += stat.ownTicks + stat.reapedTicks
  }
  return (ticks * 1000) / clockTicks()
}
