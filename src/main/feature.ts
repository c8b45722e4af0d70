/**
 * One part of the core as createCore starts it: what it needs (fields of the services record
 * that the features before it provided), what it adds to the record, and how it stops. A feature
 * names only what it uses, so none reaches into the whole record.
 */
export interface Feature<Needs, Provides extends object> {
  name: string
  // A property, not a method: its parameter is then checked strictly, so a feature whose needs
  // the record does not hold yet fails to compile where it is listed.
  start: (needs: Needs) => Running<Provides> | Promise<Running<Provides>>
}

/** A started feature: what it added to the record, and how it stops. */
export interface Running<Provides> {
  provides: Provides
  /** Runs once when the core is disposed, after the features started later have stopped. */
  stop?: () => void | Promise<void>
}

/** The started record and the one way to stop everything in it. */
export interface StartedFeatures<Services> {
  services: Services
  /** Stops every feature in the reverse order of starting; the first failure is thrown at the end. */
  stop(): Promise<void>
}

type AnyFeature = Feature<never, object>

/** What a stage of features adds to the record: every one's provides, together. */
type AllProvided<Provides extends readonly object[]> = Provides extends readonly [
  infer First,
  ...infer Rest extends readonly object[]
]
  ? First & AllProvided<Rest>
  : unknown

/**
 * The features of a core in the order they start, each typed against the record the ones before
 * it made. `then` and `together` only list; `start` runs them, stage after stage.
 */
export class FeatureList<Services extends object> {
  private constructor(
    private readonly base: object,
    /** Stages in order: the features of one stage start at once, none needing another's. */
    private readonly stages: readonly (readonly AnyFeature[])[]
  ) {}

  /** A list that starts from `base`: what the core is given rather than what it starts. */
  static from<Base extends object>(base: Base): FeatureList<Base> {
    return new FeatureList<Base>(base, [])
  }

  then<Provides extends object>(
    feature: Feature<Services, Provides>
  ): FeatureList<Services & Provides> {
    return new FeatureList<Services & Provides>(this.base, [...this.stages, [feature]])
  }

  /**
   * Features that need nothing of one another, started at once: what one waits on (a file read)
   * is time the others use. Each is typed against the record as it is before them, so one that
   * needs another's service does not compile here.
   */
  together<Provides extends readonly object[]>(
    ...features: { readonly [K in keyof Provides]: Feature<Services, Provides[K]> }
  ): FeatureList<Services & AllProvided<Provides>> {
    return new FeatureList<Services & AllProvided<Provides>>(this.base, [
      ...this.stages,
      features as readonly AnyFeature[]
    ])
  }

  /**
   * Starts each stage in order, the features of a stage at once. When one fails to start, every
   * one started is stopped (latest first; the rest of its stage too, once started) before the
   * failure is thrown, so a core that cannot start leaves nothing running.
   */
  async start(): Promise<StartedFeatures<Services>> {
    const record: Record<string, unknown> = { ...this.base }
    const stops: { name: string; stop: () => void | Promise<void> }[] = []
    const stopAll = async (): Promise<void> => {
      const failures: unknown[] = []
      for (const { stop } of stops.splice(0).reverse()) {
        try {
          await stop()
        } catch (error) {
          failures.push(error)
        }
      }
      if (failures.length > 0) throw failures[0]
    }
    for (const stage of this.stages) {
      // Each is given the record as it was before the stage: nothing of its siblings.
      const before = { ...record }
      const started = await Promise.allSettled(
        stage.map(async (feature) => ({ feature, running: await feature.start(before as never) }))
      )
      let failure: { error: unknown } | null = null
      for (const result of started) {
        if (result.status === 'rejected') {
          failure ??= { error: result.reason }
          continue
        }
        const { feature, running } = result.value
        if (running.stop) stops.push({ name: feature.name, stop: running.stop })
        for (const [key, value] of Object.entries(running.provides)) {
          // Two features providing one name would leave the earlier's users with the later's.
          if (key in record) {
            failure ??= {
              error: new Error(`${feature.name} provides ${key}, which is already there`)
            }
            continue
          }
          record[key] = value
        }
      }
      if (failure) {
        await stopAll().catch(() => undefined)
        throw failure.error
      }
    }
    return { services: record as Services, stop: stopAll }
  }
}
