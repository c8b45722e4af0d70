// The layer arrows of DESIGN.md (Layers), as src/layering.test.ts checks them on every .ts/.tsx
// file under src, tests included. eslint.config.mjs enforces the same arrows while editing; this
// is the backstop that also sees dynamic import(), require() and `/// <reference types>`.
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import ts from 'typescript'

/** A file to check: its repository-relative path (forward slashes) and its text. */
export interface SourceText {
  path: string
  text: string
}

interface ImportRef {
  specifier: string
  line: number
}

type Target = { kind: 'package'; name: string } | { kind: 'file'; path: string }

interface LayerRule {
  appliesTo(file: string): boolean
  allows(target: Target, file: string): boolean
  why: string
}

const inside = (target: string, dir: string): boolean =>
  target === dir || target.startsWith(`${dir}/`)
const isPackage = (t: Target, test: (name: string) => boolean): boolean =>
  t.kind === 'package' && test(t.name)
const isFileIn = (t: Target, ...dirs: string[]): boolean =>
  t.kind === 'file' && dirs.some((dir) => inside(t.path, dir))

const isElectron = (name: string): boolean => name === 'electron' || name.startsWith('electron/')
const isNodeBuiltin = (name: string): boolean =>
  name.startsWith('node:') ||
  // `/// <reference types="node" />` brings Node's globals in without an import.
  name === 'node' ||
  builtinModules.includes(name) ||
  builtinModules.includes(name.split('/')[0] ?? name)

const RAW_IPC_FILES = ['src/main/electron/ipc-transport.ts', 'src/preload/index.ts']

/** Test code: a test, a bench, an e2e spec or fixture, or a helper in testing. */
const isTestCode = (file: string): boolean =>
  /\.test\.tsx?$/.test(file) ||
  inside(file, 'testing') ||
  inside(file, 'bench') ||
  inside(file, 'e2e')

/**
 * The host a file of src/main belongs to, or null for the core. A target is a path without its
 * extension, so the Electron entry is `src/main/index` as an import and `src/main/index.ts` as a file.
 */
function hostOf(file: string): 'electron' | 'server' | 'cli' | null {
  if (inside(file, 'src/main/electron') || /^src\/main\/index(\.ts)?$/.test(file)) return 'electron'
  if (inside(file, 'src/main/server')) return 'server'
  if (inside(file, 'src/main/cli')) return 'cli'
  return null
}
const isCore = (file: string): boolean => inside(file, 'src/main') && hostOf(file) === null

// `mecatl serve` is how browser mode starts: the one place where a host starts another.
const HOST_BRIDGES: readonly { from: string; to: string }[] = [
  { from: 'src/main/cli/commands/serve.ts', to: 'src/main/server/browser-server' }
]

/** Why each arrow exists, as the failures say it (eslint.config.mjs says the same words). */
export const why = {
  shared: 'src/shared imports zod and its own files only',
  renderer:
    'src/renderer imports src/shared, its own files and web packages only: no node:*, electron or main',
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
  strayHelper: 'a helper only tests use lives in testing/, out of the production build'
} as const

const rules: readonly LayerRule[] = [
  {
    appliesTo: (file) => inside(file, 'src/shared'),
    allows: (t, file) =>
      isPackage(t, (n) => n === 'zod' || n.startsWith('zod/')) ||
      // Its tests sit beside it and take vitest too.
      (/\.test\.ts$/.test(file) && isPackage(t, (n) => n === 'vitest')) ||
      isFileIn(t, 'src/shared'),
    why: why.shared
  },
  {
    appliesTo: (file) => inside(file, 'src/renderer'),
    allows: (t) =>
      t.kind === 'package'
        ? !isNodeBuiltin(t.name) && !isElectron(t.name)
        : isFileIn(t, 'src/renderer', 'src/shared'),
    why: why.renderer
  },
  {
    appliesTo: (file) => inside(file, 'src/main') && hostOf(file) !== 'electron',
    allows: (t) => !isPackage(t, isElectron),
    why: why.electronOnly
  },
  {
    appliesTo: (file) => inside(file, 'src/main'),
    allows: (t) => !isFileIn(t, 'src/renderer', 'src/preload'),
    why: why.noUi
  },
  {
    appliesTo: (file) => inside(file, 'src/preload'),
    allows: (t) =>
      isPackage(t, (n) => n === 'electron') || isFileIn(t, 'src/preload', 'src/shared/contract'),
    why: why.preload
  },
  {
    appliesTo: isCore,
    allows: (t) => t.kind === 'package' || hostOf(t.path) === null,
    why: why.coreToHost
  },
  {
    appliesTo: (file) => hostOf(file) !== null,
    allows: (t, file) => {
      if (t.kind === 'package') return true
      const host = hostOf(t.path)
      if (host === null || host === hostOf(file)) return true
      return HOST_BRIDGES.some((bridge) => bridge.from === file && bridge.to === t.path)
    },
    why: why.hostToHost
  },
  {
    appliesTo: (file) => !isTestCode(file),
    allows: (t) => !isFileIn(t, 'testing', 'bench'),
    why: why.testCode
  },
  {
    appliesTo: (file) => inside(file, 'src') || inside(file, 'testing'),
    allows: (t) => !isFileIn(t, 'e2e'),
    why: why.noE2e
  },
  {
    appliesTo: (file) =>
      isCore(file) &&
      !inside(file, 'src/main/rpc') &&
      file !== 'src/main/core.ts' &&
      // A test may play the window: drive a core over rpc/memory-transport.
      !isTestCode(file),
    allows: (t) => !isFileIn(t, 'src/main/rpc'),
    why: why.domainToRpc
  },
  {
    appliesTo: (file) => inside(file, 'src/main/rpc') && !isTestCode(file),
    allows: (t) =>
      t.kind === 'package' || isFileIn(t, 'src/shared', 'src/main/rpc', 'src/main/events'),
    why: why.rpcDown
  }
]

/** Every module a file names: static and type imports, re-exports, import(), require(). */
function importsOf(source: ts.SourceFile): ImportRef[] {
  const found: ImportRef[] = []
  const add = (node: ts.Node | undefined): void => {
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) {
      found.push({ specifier: node.text, line: lineOf(source, node) })
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node)) {
      if (ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression)
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require'
      if (isImport || isRequire) add(node.arguments[0])
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  for (const reference of source.typeReferenceDirectives) {
    const line = source.getLineAndCharacterOfPosition(reference.pos).line + 1
    found.push({ specifier: reference.fileName, line })
  }
  return found
}

/** Lines where code (not a comment or string) names ipcMain or ipcRenderer. */
function rawIpcLines(source: ts.SourceFile): number[] {
  const lines = new Set<number>()
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && (node.text === 'ipcMain' || node.text === 'ipcRenderer')) {
      lines.add(lineOf(source, node))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return [...lines]
}

function parse(file: SourceText): ts.SourceFile {
  const kind = file.path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind)
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
}

function targetOf(file: string, specifier: string): Target {
  if (specifier.startsWith('.')) {
    return {
      kind: 'file',
      path: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
    }
  }
  if (specifier.startsWith('/')) return { kind: 'file', path: specifier }
  return { kind: 'package', name: specifier }
}

/** Each crossed arrow as `file:line: imports X (why)`, or `file:line: uses raw IPC (...)`. */
export function findViolations(files: readonly SourceText[]): string[] {
  const violations: string[] = []
  const imports = new Map<string, ImportRef[]>()
  for (const file of files) {
    const source = parse(file)
    const refs = importsOf(source)
    imports.set(file.path, refs)
    const applicable = rules.filter((rule) => rule.appliesTo(file.path))
    for (const ref of refs) {
      const target = targetOf(file.path, ref.specifier)
      const shown = target.kind === 'file' ? target.path : target.name
      for (const rule of applicable) {
        if (!rule.allows(target, file.path))
          violations.push(`${file.path}:${ref.line}: imports ${shown} (${rule.why})`)
      }
    }
    if (inside(file.path, 'src') && !RAW_IPC_FILES.includes(file.path)) {
      for (const line of rawIpcLines(source)) {
        violations.push(
          `${file.path}:${line}: uses raw IPC (only ${RAW_IPC_FILES.join(' and ')} may touch ipcMain/ipcRenderer)`
        )
      }
    }
  }
  return [...violations, ...strayTestHelpers(imports)]
}

/**
 * Files of src/main outside the test code that only test code imports: helpers that belong in
 * testing, where the production build cannot pick them up. Entry points (imported by
 * nothing) are not helpers.
 */
function strayTestHelpers(imports: ReadonlyMap<string, readonly ImportRef[]>): string[] {
  const paths = new Set(imports.keys())
  const resolve = (target: string): string | undefined =>
    ['', '.ts', '.tsx', '.mts', '.cts', '/index.ts', '/index.tsx']
      .map((ending) => `${target}${ending}`)
      .find((candidate) => paths.has(candidate))
  const importers = new Map<string, Set<string>>()
  for (const [file, refs] of imports) {
    for (const ref of refs) {
      const target = targetOf(file, ref.specifier)
      const resolved = target.kind === 'file' ? resolve(target.path) : undefined
      if (resolved && resolved !== file) {
        importers.set(resolved, (importers.get(resolved) ?? new Set()).add(file))
      }
    }
  }
  // A helper that only a stray helper imports is one too: grow the set until it holds still.
  const stray = new Set<string>()
  const testOnly = (file: string): boolean => isTestCode(file) || stray.has(file)
  for (let grew = true; grew;) {
    grew = false
    for (const [file, by] of importers) {
      if (inside(file, 'src/main') && !testOnly(file) && [...by].every(testOnly)) {
        stray.add(file)
        grew = true
      }
    }
  }
  return [...stray].sort().map((file) => `${file}: only test code imports it (${why.strayHelper})`)
}

/** Every .ts/.tsx/.mts/.cts file under `dir` of `root`, sorted by path. */
export function sourceFilesUnder(root: string, dir: string): SourceText[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|tsx|mts|cts)$/.test(name))
    .map((name) => {
      const relative = path.posix.join(dir, name.split(path.sep).join('/'))
      return { path: relative, text: readFileSync(path.join(root, relative), 'utf8') }
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1))
}
