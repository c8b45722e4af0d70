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

/**
 * The features of a core in the order they start, each typed against the record the ones before
 * it made. `then` only lists; `start` runs them one after another.
 */
export class FeatureList<Services extends object> {
  private constructor(
    private readonly base: object,
    private readonly features: readonly AnyFeature[]
  ) {}

  /** A list that starts from `base`: what the core is given rather than what it starts. */
  static from<Base extends object>(base: Base): FeatureList<Base> {
    return new FeatureList<Base>(base, [])
  }

  then<Provides extends object>(
    feature: Feature<Services, Provides>
  ): FeatureList<Services & Provides> {
    return new FeatureList<Services & Provides>(this.base, [...this.features, feature])
  }

  /**
   * Starts each feature in order. When one fails to start, those already started are stopped
   * (latest first) before the failure is thrown, so a core that cannot start leaves nothing running.
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
    for (const feature of this.features) {
      try {
        const running = await feature.start(record as never)
        for (const [key, value] of Object.entries(running.provides)) {
          // Two features providing one name would leave the earlier's users with the later's.
          if (key in record)
            throw new Error(`${feature.name} provides ${key}, which is already there`)
          record[key] = value
        }
        if (running.stop) stops.push({ name: feature.name, stop: running.stop })
      } catch (error) {
        await stopAll().catch(() => undefined)
        throw error
      }
    }
    return { services: record as Services, stop: stopAll }
  }
}
