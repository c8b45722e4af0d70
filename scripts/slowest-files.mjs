// The slowest test files of a vitest run, read from its JSON reporter's file, for the summary
// that `npm test` (scripts/test.mjs) prints after the unit step.
import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The `count` slowest files of the report at `reportPath`, slowest first, with paths relative to
 * `root` and times in seconds. A report that is missing or unreadable (vitest stopped before
 * writing it) gives an empty list: the summary then just leaves the ranking out.
 * @param {string} reportPath
 * @param {string} root
 * @param {number} [count]
 * @returns {{ file: string, seconds: number }[]}
 */
export function slowestFiles(reportPath, root, count = 10) {
  let report
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'))
  } catch {
    return []
  }
  if (!Array.isArray(report?.testResults)) return []
  return report.testResults
    .map((result) => ({
      file: path.relative(root, String(result.name)),
      seconds: duration(result) / 1000
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
}

/** A file that never started (it failed to import) has no times: it took none worth ranking. */
function duration(result) {
  const { startTime, endTime } = result
  if (typeof startTime !== 'number' || typeof endTime !== 'number') return 0
  return Math.max(0, endTime - startTime)
}

/**
 * The ranking as printed lines: a heading, then one line per file with its time aligned.
 * @param {{ file: string, seconds: number }[]} slowest
 * @returns {string[]}
 */
export function slowestLines(slowest) {
  if (slowest.length === 0) return []
  const times = slowest.map((s) => `${s.seconds.toFixed(1)}s`)
  const width = Math.max(...times.map((t) => t.length))
  return [
    'slowest test files:',
    ...slowest.map((s, i) => `  ${times[i].padStart(width)}  ${s.file}`)
  ]
}
