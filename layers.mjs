// The layer arrows of DESIGN.md (Layers), written once. eslint.config.mjs enforces them while
// editing; testing/layer-rules.ts applies the same arrows to the whole tree for
// src/layering.test.ts, adding the package rules and the import forms lint does not see. Paths
// are repository-relative with forward slashes; an import target is a path without its extension.

/** Whether `target` is `dir` or lies below it. */
export function inside(target, dir) {
  return target === dir || target.startsWith(`${dir}/`)
}

/** Test code: a test, a bench, an e2e spec or fixture, or a helper in testing/. */
export function isTestCode(file) {
  return (
    /\.test\.tsx?$/.test(file) ||
    inside(file, 'testing') ||
    inside(file, 'bench') ||
    inside(file, 'e2e')
  )
}

/**
 * The host a file of src/main belongs to, or null for the core. A target is a path without its
 * extension, so the Electron entry is `src/main/index` as an import and `src/main/index.ts` as a file.
 */
export function hostOf(file) {
  if (inside(file, 'src/main/electron') || /^src\/main\/index(\.ts)?$/.test(file)) return 'electron'
  if (inside(file, 'src/main/server')) return 'server'
  if (inside(file, 'src/main/cli')) return 'cli'
  return null
}

const FEATURES = 'src/renderer/src/features'

/** The renderer feature a path lies in (`chat` for src/renderer/src/features/chat/…), or null. */
export function featureOf(file) {
  if (!file.startsWith(`${FEATURES}/`)) return null
  return file.slice(FEATURES.length + 1).split('/')[0] || null
}

/** Whether `target` is the one face of its feature: the feature's folder or its index module. */
export function isFeatureFace(target) {
  const feature = featureOf(target)
  return (
    feature !== null &&
    (target === `${FEATURES}/${feature}` || target === `${FEATURES}/${feature}/index`)
  )
}

/** src/main minus the hosts. */
export function isCore(file) {
  return inside(file, 'src/main') && hostOf(file) === null
}

// `mecatl serve` is how browser mode starts: the one place where a host starts another.
const hostBridges = [
  { from: 'src/main/cli/commands/serve.ts', to: 'src/main/server/browser-server' }
]

/**
 * The tiers of src/main, lowest first: each names the folders (and root modules, by file name)
 * that sit on it. A production file of the core imports from its own tier and those below,
 * never from above: so the arrows between features run one way, and a folder added to src/main
 * must be placed here before it may be imported. The hosts sit on top; rpc/ and the hosts also
 * have arrows of their own (below).
 */
export const mainTiers = [
  // What everything may use: the event hub, the network guards, and the core's own small types.
  ['events', 'net', 'version', 'host-hooks', 'feature', 'raw-modules', 'compile-cache'],
  // Storage and places: the database, the path jail and folders, the settings files.
  ['store', 'workspace', 'settings'],
  // The machinery tools run on: processes, their confinement, skills on disk, model providers.
  ['jobs', 'sandbox', 'skills', 'providers'],
  // What a turn can call: the tool catalog and MCP servers, and the checkpoints around them.
  ['tools', 'mcp', 'checkpoints', 'file-finder'],
  // Deciding on each call.
  ['gate'],
  // Sessions, turns and sub-agents.
  ['agent'],
  // Answering the contract and assembling the core.
  ['api', 'rpc', 'core', 'core-stop'],
  // The hosts that run a core.
  ['cli', 'server', 'electron', 'index']
]

/** The tier of a path under src/main (its first segment, a folder or a root module), or undefined. */
export function tierOf(file) {
  // A root module by its name alone: core.ts, core-stop.test.ts and raw-modules.d.ts alike.
  const segment = file.split('/')[2]?.replace(/\..*$/, '')
  const tier = mainTiers.findIndex((names) => names.includes(segment))
  return tier === -1 ? undefined : tier
}

/**
 * The tiers of the renderer's features, lowest first. A production file of a feature imports
 * other features from lower tiers only, so no two features lead into each other and the window
 * loads without an import cycle; a feature added to features/ is placed here before it may import
 * another. The shell sits above them all.
 */
export const rendererTiers = [
  // State nearly everything reads and that reads no other feature: the settings draft, the find
  // bar, the plan, the folder's trust, the start screen.
  ['find', 'settings', 'todo', 'trust', 'welcome'],
  // What reads the settings only: prices and meters, web search.
  ['meters', 'web'],
  // The open project and its sessions.
  ['sessions'],
  // What reads the sessions: looks, checkpoints, memory, the permission rules.
  ['appearance', 'checkpoints', 'memory', 'permissions'],
  // The questions a call asks, the jobs it runs, the safety it is judged by.
  ['approvals', 'jobs', 'safety'],
  // Built on those: sub-agents, notices, keyboard shortcuts, skills.
  ['delegation', 'notifications', 'shortcuts', 'skills'],
  // MCP servers (their prompts use the skills' and shortcuts' commands), then what mentions
  // their resources, then what attaches them.
  ['mcp'],
  ['mention'],
  ['attachments'],
  // The conversation, which composes most of the above.
  ['chat'],
  // The Settings screen, which lays out every feature's section.
  ['settings-screen']
]

/** The tier of a renderer feature by name, or undefined when it is in none. */
export function featureTierOf(feature) {
  const tier = rendererTiers.findIndex((names) => names.includes(feature))
  return tier === -1 ? undefined : tier
}

/** Why each arrow exists, as the failures say it. */
export const why = {
  shared: 'src/shared imports zod and its own files only',
  renderer:
    'src/renderer imports src/shared, its own files and web packages only (its tests also testing/dom): no node:*, electron or main',
  electronOnly: 'only src/main/electron/** and src/main/index.ts may import electron',
  noUi: 'src/main does not import the renderer or the preload',
  preload: 'src/preload imports electron and src/shared/contract only',
  coreToHost:
    'the core (src/main minus electron/, server/, cli/, index.ts) imports no host: hosts build on the core',
  hostToHost: 'a host (electron/ with index.ts, server/, cli/) imports no other host',
  testCode: 'testing/ and bench/ are test code: only tests, benches, e2e and testing/ import them',
  noE2e: 'nothing under src or testing imports e2e/: what a test shares with e2e lives in testing',
  domainToRpc:
    'a domain folder does not import src/main/rpc (only hosts and core.ts do): handlers are typed by src/shared/contract/handlers, events go through src/main/events',
  rpcDown: 'src/main/rpc imports src/shared, src/main/events and its own files only',
  tiers:
    'src/main imports down its tiers only: a folder takes from its own tier and those below (mainTiers in layers.mjs, where every folder of src/main is placed)',
  strayHelper: 'a helper only tests use lives in testing/, out of the production build',
  featureFace:
    'a renderer feature is used through its face only: import its folder (features/<name>, which is its index.ts), never a file inside it; what the index lacks is added to it as an action, a read hook or an event, never its store, reducer or dispatch',
  rendererBase:
    'src/renderer/src/lib, ui, app and bridge sit below the features and the shell and import neither: what both need moves down into them',
  apiSlices:
    "a slice's answer (src/main/api/<feature>.ts) never calls another slice's: what two need is a service both take from the services record",
  shellOnTop:
    "the shell (src/renderer/src/shell) lays out the window over every feature and nothing imports it: the window's own state (which screen is open, navigation, the layout) is in src/renderer/src/app, below the features",
  featureTiers:
    'a renderer feature imports only features on lower tiers (rendererTiers in layers.mjs, where every feature is placed): when a lower one needs a higher one, move what both need down, or offer an event or callback the higher one registers',
  featureStyles:
    "a feature's stylesheet is its own: a look two features share moves to src/renderer/src/ui, beside the component that wears it"
}

/**
 * Where an import of a file may land: `allows(target, file)` for the files each arrow
 * `appliesTo`. Packages have rules of their own (no-restricted-imports in eslint.config.mjs, the
 * package rules of testing/layer-rules.ts).
 */
export const fileArrows = [
  {
    appliesTo: (file) => inside(file, 'src/shared'),
    allows: (target) => inside(target, 'src/shared'),
    why: why.shared
  },
  {
    appliesTo: (file) => inside(file, 'src/renderer'),
    allows: (target, file) =>
      inside(target, 'src/renderer') ||
      inside(target, 'src/shared') ||
      // A test of the window may use the helpers written for its page (compiled with it).
      (isTestCode(file) && inside(target, 'testing/dom')),
    why: why.renderer
  },
  {
    appliesTo: (file) => inside(file, 'src/preload'),
    allows: (target) => inside(target, 'src/preload') || inside(target, 'src/shared/contract'),
    why: why.preload
  },
  {
    appliesTo: (file) => inside(file, 'src/main'),
    allows: (target) => !inside(target, 'src/renderer') && !inside(target, 'src/preload'),
    why: why.noUi
  },
  {
    appliesTo: isCore,
    allows: (target) => hostOf(target) === null,
    why: why.coreToHost
  },
  {
    appliesTo: (file) => hostOf(file) !== null,
    allows: (target, file) =>
      hostOf(target) === null ||
      hostOf(target) === hostOf(file) ||
      hostBridges.some((bridge) => bridge.from === file && bridge.to === target),
    why: why.hostToHost
  },
  {
    appliesTo: (file) => !isTestCode(file),
    allows: (target) => !inside(target, 'testing') && !inside(target, 'bench'),
    why: why.testCode
  },
  {
    appliesTo: (file) => inside(file, 'src') || inside(file, 'testing'),
    allows: (target) => !inside(target, 'e2e'),
    why: why.noE2e
  },
  {
    appliesTo: (file) =>
      isCore(file) &&
      !inside(file, 'src/main/rpc') &&
      file !== 'src/main/core.ts' &&
      // A test may play the window: drive a core over rpc/memory-transport.
      !isTestCode(file),
    allows: (target) => !inside(target, 'src/main/rpc'),
    why: why.domainToRpc
  },
  {
    appliesTo: (file) => inside(file, 'src/main/rpc') && !isTestCode(file),
    allows: (target) =>
      inside(target, 'src/shared') ||
      inside(target, 'src/main/rpc') ||
      inside(target, 'src/main/events'),
    why: why.rpcDown
  },
  {
    // Tests sit beside the code they test and may drive a whole core from any tier.
    appliesTo: (file) => isCore(file) && !isTestCode(file),
    allows: (target, file) => {
      // A host or rpc/ as the target is for the arrows above to judge, in their own words.
      if (!inside(target, 'src/main') || hostOf(target) !== null) return true
      if (inside(target, 'src/main/rpc')) return true
      const from = tierOf(file)
      const to = tierOf(target)
      // A file in no tier is said once as such, not at each of its imports.
      if (from === undefined) return true
      return to !== undefined && to <= from
    },
    why: why.tiers
  },
  {
    // Within a feature its files import one another directly. A test sits beside its feature and
    // may set up another's state to exercise its own.
    appliesTo: (file) => inside(file, 'src/renderer') && !isTestCode(file),
    allows: (target, file) => {
      const feature = featureOf(target)
      if (feature === null || feature === featureOf(file)) return true
      // A stylesheet is for the arrow below, in its own words.
      return isFeatureFace(target) || target.endsWith('.css')
    },
    why: why.featureFace
  },
  {
    // A test beside its feature may set up any other's state; the faces arrow above judges it.
    appliesTo: (file) => featureOf(file) !== null && !isTestCode(file),
    allows: (target, file) => {
      const to = featureOf(target)
      if (to === null || to === featureOf(file) || target.endsWith('.css')) return true
      const from = featureTierOf(featureOf(file))
      const toTier = featureTierOf(to)
      return from !== undefined && toTier !== undefined && toTier < from
    },
    why: why.featureTiers
  },
  {
    appliesTo: (file) => inside(file, 'src/renderer'),
    allows: (target, file) => {
      const feature = featureOf(target)
      return !target.endsWith('.css') || feature === null || feature === featureOf(file)
    },
    why: why.featureStyles
  },
  {
    appliesTo: (file) =>
      ['lib', 'ui', 'app', 'bridge'].some((dir) => inside(file, `src/renderer/src/${dir}`)),
    allows: (target) =>
      !inside(target, 'src/renderer/src/features') && !inside(target, 'src/renderer/src/shell'),
    why: why.rendererBase
  },
  {
    // Only the index joins the answers; each answer stands on the services alone.
    appliesTo: (file) =>
      inside(file, 'src/main/api') && file !== 'src/main/api/index.ts' && !isTestCode(file),
    allows: (target) => !inside(target, 'src/main/api'),
    why: why.apiSlices
  },
  {
    // main.tsx mounts the shell; a test may drive the shell's parts from beside them.
    appliesTo: (file) =>
      inside(file, 'src/renderer') &&
      !inside(file, 'src/renderer/src/shell') &&
      file !== 'src/renderer/src/main.tsx' &&
      !isTestCode(file),
    allows: (target) => !inside(target, 'src/renderer/src/shell'),
    why: why.shellOnTop
  }
]
