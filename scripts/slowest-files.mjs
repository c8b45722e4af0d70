// The slowest test files of a vitest run and the slowest specs of a Playwright run, read from
// their JSON reporters' files, for the summary that `npm test` (scripts/test.mjs) prints under
// each test step.
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

/**
 * The `count` slowest spec files of a Playwright JSON report, slowest first, with paths relative
 * to `root`: each file's time is the sum of its tests' runs (a retry included), so with several
 * workers the times add up to more than the step took. A missing or unreadable report gives [].
 * @param {string} reportPath
 * @param {string} root
 * @param {number} [count]
 * @returns {{ file: string, seconds: number }[]}
 */
export function slowestSpecs(reportPath, root, count = 10) {
  let report
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'))
  } catch {
    return []
  }
  const testDir = typeof report?.config?.rootDir === 'string' ? report.config.rootDir : root
  if (!Array.isArray(report?.suites)) return []
  const perFile = new Map()
  for (const suite of report.suites) {
    if (typeof suite?.file !== 'string') continue
    const file = path.relative(root, path.resolve(testDir, suite.file))
    perFile.set(file, (perFile.get(file) ?? 0) + suiteMs(suite))
  }
  return [...perFile]
    .map(([file, ms]) => ({ file, seconds: ms / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
}

/** Every run of every test in a suite and the suites inside it (describe blocks), in ms. */
function suiteMs(suite) {
  let ms = 0
  for (const spec of Array.isArray(suite.specs) ? suite.specs : []) {
    for (const test of Array.isArray(spec?.tests) ? spec.tests : []) {
      for (const result of Array.isArray(test?.results) ? test.results : []) {
        if (typeof result?.duration === 'number') ms += Math.max(0, result.duration)
      }
    }
  }
  for (const inner of Array.isArray(suite.suites) ? suite.suites : []) ms += suiteMs(inner)
  return ms
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
