/** One test file and how long it took. */
export interface SlowFile {
  file: string
  seconds: number
}

/** The `count` slowest files of a vitest JSON report, slowest first, relative to `root`. */
export function slowestFiles(reportPath: string, root: string, count?: number): SlowFile[]

/** The `count` slowest spec files of a Playwright JSON report, slowest first, relative to `root`. */
export function slowestSpecs(reportPath: string, root: string, count?: number): SlowFile[]

/** The summary's lines for them. */
export function slowestLines(slowest: readonly SlowFile[]): string[]
