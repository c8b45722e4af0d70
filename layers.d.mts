// Types of layers.mjs, for testing/layer-rules.ts.

export function inside(target: string, dir: string): boolean
export function isTestCode(file: string): boolean
export function hostOf(file: string): 'electron' | 'server' | 'cli' | null
export function isCore(file: string): boolean
export function featureOf(file: string): string | null
export function isFeatureFace(target: string): boolean
export const mainTiers: readonly (readonly string[])[]
export function tierOf(file: string): number | undefined
export const rendererTiers: readonly (readonly string[])[]
export function featureTierOf(feature: string): number | undefined

export const why: {
  readonly shared: string
  readonly renderer: string
  readonly electronOnly: string
  readonly noUi: string
  readonly preload: string
  readonly coreToHost: string
  readonly hostToHost: string
  readonly testCode: string
  readonly noE2e: string
  readonly domainToRpc: string
  readonly rpcDown: string
  readonly tiers: string
  readonly strayHelper: string
  readonly featureFace: string
  readonly rendererBase: string
  readonly apiSlices: string
  readonly shellOnTop: string
  readonly featureTiers: string
  readonly featureStyles: string
}

/** Where a relative import of `file` may land. */
export interface FileArrow {
  appliesTo(file: string): boolean
  allows(target: string, file: string): boolean
  why: string
}
export const fileArrows: readonly FileArrow[]
