// The layer arrows of DESIGN.md (Layers), as src/layering.test.ts checks them on every .ts/.tsx
// file under src, tests included. The arrows between files are layers.mjs's, which
// eslint.config.mjs enforces while editing; this is the backstop that also sees dynamic
// import(), require() and `/// <reference types>`, the packages each layer names, and what only
// the whole tree shows (helpers only tests use, folders in no tier).
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import ts from 'typescript'
import { fileArrows, hostOf, inside, isTestCode, tierOf, why } from '../layers.mjs'

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

const isPackage = (t: Target, test: (name: string) => boolean): boolean =>
  t.kind === 'package' && test(t.name)

const isElectron = (name: string): boolean => name === 'electron' || name.startsWith('electron/')
const isNodeBuiltin = (name: string): boolean =>
  name.startsWith('node:') ||
  // `/// <reference types="node" />` brings Node's globals in without an import.
  name === 'node' ||
  builtinModules.includes(name) ||
  builtinModules.includes(name.split('/')[0] ?? name)

const RAW_IPC_FILES = ['src/main/electron/ipc-transport.ts', 'src/preload/index.ts']

export { why }

/** Which packages a layer may name (lint says the same with no-restricted-imports). */
const packageRules: readonly LayerRule[] = [
  {
    appliesTo: (file) => inside(file, 'src/shared'),
    allows: (t, file) =>
      isPackage(t, (n) => n === 'zod' || n.startsWith('zod/')) ||
      // Its tests sit beside it and take vitest too.
      (/\.test\.ts$/.test(file) && isPackage(t, (n) => n === 'vitest')),
    why: why.shared
  },
  {
    appliesTo: (file) => inside(file, 'src/renderer'),
    allows: (t) => !isPackage(t, (n) => isNodeBuiltin(n) || isElectron(n)),
    why: why.renderer
  },
  {
    appliesTo: (file) => inside(file, 'src/main') && hostOf(file) !== 'electron',
    allows: (t) => !isPackage(t, isElectron),
    why: why.electronOnly
  },
  {
    appliesTo: (file) => inside(file, 'src/preload'),
    allows: (t) => isPackage(t, (n) => n === 'electron'),
    why: why.preload
  }
]

/** Each rule speaks of one kind of target: a package rule passes files, an arrow packages. */
const rules: readonly LayerRule[] = [
  ...packageRules.map((rule) => ({
    ...rule,
    allows: (t: Target, file: string) => t.kind === 'file' || rule.allows(t, file)
  })),
  ...fileArrows.map((arrow) => ({
    appliesTo: (file: string) => arrow.appliesTo(file),
    allows: (t: Target, file: string) => t.kind === 'package' || arrow.allows(t.path, file),
    why: arrow.why
  }))
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
  const untiered = [...imports.keys()]
    .filter((file) => inside(file, 'src/main') && tierOf(file) === undefined)
    .map((file) => `${file}:1: is in no tier (${why.tiers})`)
  return [...violations, ...untiered, ...strayTestHelpers(imports)]
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
