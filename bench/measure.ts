/** The median wall time of `fn` over `runs` runs, after one warm-up. */
export async function median(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    await fn()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] ?? 0
}

/**
 * The median wall times of several functions over `runs` rounds, after one warm-up each; each
 * round runs them one after another, so a machine that slows down mid-run slows all alike.
 */
export async function interleavedMedians(
  fns: readonly (() => Promise<unknown>)[],
  runs = 7
): Promise<number[]> {
  for (const fn of fns) await fn()
  const times: number[][] = fns.map(() => [])
  for (let i = 0; i < runs; i++) {
    for (const [index, fn] of fns.entries()) {
      const start = process.hrtime.bigint()
      await fn()
      times[index]?.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b)
    return list[Math.floor(list.length / 2)] ?? 0
  })
}

/** One line of the report: the candidate, its baseline measured in the same run, and the ratio. */
export function report(
  name: string,
  candidateMs: number,
  baselineName: string,
  baselineMs: number
): void {
  const ratio = baselineMs > 0 ? candidateMs / baselineMs : Number.NaN
  console.log(
    `${name.padEnd(44)} ${candidateMs.toFixed(2).padStart(9)} ms   vs ${baselineName.padEnd(30)} ${baselineMs
      .toFixed(2)
      .padStart(9)} ms   ratio ${ratio.toFixed(3)}`
  )
}

/** Like `report`, for a figure that is not a time: a size in MB, a rate in frames per second. */
export function reportAmount(
  name: string,
  candidate: number,
  unit: string,
  baselineName: string,
  baseline: number
): void {
  const ratio = baseline > 0 ? candidate / baseline : Number.NaN
  const pad = (value: number): string => `${value.toFixed(2).padStart(9)} ${unit.padEnd(3)}`
  console.log(
    `${name.padEnd(44)} ${pad(candidate)}vs ${baselineName.padEnd(30)} ${pad(baseline)}ratio ${ratio.toFixed(3)}`
  )
}
