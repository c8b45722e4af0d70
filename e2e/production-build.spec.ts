// The production build (out/main, out/preload, out/renderer, built by the global setup) holds no
// test code: no module of testing or e2e, no symbol only test code declares, and no way
// to widen the web guard. The testing build in out/testing proves the check can see test code.
// The window's build is minified and split: its main chunk stays under its goal and holds none of
// the parts loaded on first use (the terminal, code highlighting, Markdown, the Settings page).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import ts from 'typescript'
import { bytesOf, firstLoadChunks, readChunkMap, type ChunkMap } from '../scripts/chunk-map'
import { repoRoot } from './fixtures/app'
import { ensureTestingBuild, testingServeEntry } from './fixtures/testing-build'

const productionDirs = ['out/main', 'out/preload', 'out/renderer']

function filesUnder(dir: string, pattern: RegExp): string[] {
  const full = path.join(repoRoot, dir)
  if (!existsSync(full)) return []
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => path.posix.join(dir, name.split(path.sep).join('/')))
}

const read = (file: string): string => readFileSync(path.join(repoRoot, file), 'utf8')

const sourceModule = /^(?:src|testing|e2e|bench)\/\S+\.(?:ts|tsx|mts|js|mjs)$/

/** The source files a bundle was made of, from the `// src/…` line rolldown puts before each. */
function bundledModules(text: string): string[] {
  return [...text.matchAll(/^\/\/ ((?:src|testing|e2e|bench)\/\S+\.(?:ts|tsx|mts|js|mjs))$/gm)].map(
    (match) => match[1] ?? ''
  )
}

/**
 * A bundle without the npm packages built into it: each module's code follows its `// path` line
 * up to the next one, and a package's (`// node_modules/…`) is left out.
 */
function withoutPackages(text: string): string {
  return text
    .split(/^(?=\/\/ (?:src|testing|e2e|bench|node_modules)\/\S+$)/m)
    .filter((region) => !region.startsWith('// node_modules/'))
    .join('')
}

/**
 * The renderer's chunk map (scripts/chunk-map.ts), checked against the build it describes: every
 * script under out/renderer is in it and every chunk it lists is there, so a stale map fails here
 * instead of vouching for a build it did not see.
 */
function rendererChunkMap(): ChunkMap {
  const map = readChunkMap(repoRoot)
  const scripts = filesUnder('out/renderer', /\.js$/).map((file) =>
    file.slice('out/renderer/'.length)
  )
  expect(map.chunks.map((chunk) => chunk.file).sort()).toEqual(scripts.sort())
  for (const chunk of map.chunks) {
    expect(chunk.bytes, chunk.file).toBe(
      statSync(path.join(repoRoot, 'out/renderer', chunk.file)).size
    )
  }
  return map
}

/** The functions, classes and variables the files export, as written at their declaration. */
function exportedNames(files: readonly string[]): Set<string> {
  const names = new Set<string>()
  for (const file of files) {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true)
    for (const statement of source.statements) {
      const exported = ts.canHaveModifiers(statement)
        ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
        : false
      if (!exported) continue
      if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
        if (statement.name) names.add(statement.name.text)
      } else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text)
        }
      }
    }
  }
  return names
}

/** Every identifier the files use anywhere. */
function identifiers(files: readonly string[]): Set<string> {
  const names = new Set<string>()
  for (const file of files) {
    const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true, kind)
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) names.add(node.text)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return names
}

test('the production build contains no test code and no way to widen the web guard', () => {
  const bundles = productionDirs.flatMap((dir) => filesUnder(dir, /\.(js|cjs|mjs|html)$/))
  expect(bundles, 'run `node scripts/ensure-built.mjs` first').toContain('out/main/cli.js')
  expect(bundles).toContain('out/main/index.js')
  const text = bundles.map(read).join('\n')

  // The module list is what the check stands on: without it it fails rather than passing on
  // nothing. The main process's bundles name their modules; the window's are minified, and its
  // chunk map names theirs.
  const rendererModules = rendererChunkMap().chunks.flatMap((chunk) => chunk.modules)
  expect(rendererModules).toContain('src/renderer/src/main.tsx')
  const modules = [
    ...bundledModules(text),
    ...rendererModules.filter(
      (file) => sourceModule.test(file) || !file.startsWith('node_modules/')
    )
  ]
  expect(modules, 'the bundles no longer name their modules: adapt this check').toContain(
    'src/main/core.ts'
  )
  expect(modules.filter((file) => !file.startsWith('src/'))).toEqual([])
  expect(modules.filter((file) => /\.test\.tsx?$/.test(file))).toEqual([])

  const testingFiles = filesUnder('testing', /./)
  expect(testingFiles).toContain('testing/e2e-serve.ts')
  for (const file of testingFiles) expect(text).not.toContain(file)

  // What the testing files export, by a name the app's own sources never use (generic ones
  // such as textOf say nothing and are left out), is not declared anywhere in the app.
  const production = filesUnder('src', /(?<!\.test)\.tsx?$/).filter(
    (file) => !file.startsWith('testing/') && !file.endsWith('.d.ts')
  )
  const productionNames = identifiers(production)
  const testOnly = [...exportedNames(testingFiles.filter((file) => file.endsWith('.ts')))].filter(
    (name) => !productionNames.has(name)
  )
  expect(testOnly).toContain('startFakeModelServer')
  const declaration = (name: string): RegExp =>
    new RegExp(`(?:function\\*?|class|const|let|var)\\s+${name}(?:\\$\\d+)?\\b`)
  // Only the main-process bundles can hold src/main code; the renderer's carries npm packages,
  // and so do they (zod, the provider SDKs), whose local names are their own business (the
  // module list above covers them).
  const mainText = bundles
    .filter((file) => !file.startsWith('out/renderer/'))
    .map((file) => withoutPackages(read(file)))
    .join('\n')
  expect(testOnly.filter((name) => declaration(name).test(mainText))).toEqual([])

  // The old environment hatch is gone, and nothing in the app turns loopback on.
  expect(text).not.toContain('MECATL_TEST_ALLOW_LOOPBACK')
  expect(text).not.toMatch(/allowLoopback:\s*(?:true|!0)/)
})

/** The window's main chunk, in bytes: the goal of issue 36 (see bench/first-paint.bench.ts). */
const MAIN_CHUNK_LIMIT = 700_000

/**
 * What a project window does not show at first paint, and so must not load with it: each is a
 * chunk of its own, loaded on first use (docs/architecture.md, The renderer build).
 */
const lazyParts: { part: string; module: RegExp }[] = [
  { part: 'the terminal (xterm.js)', module: /^node_modules\/@xterm\// },
  {
    part: 'code highlighting (highlight.js)',
    module: /\/(?:highlight\.js|lowlight|rehype-highlight)\//
  },
  {
    part: 'the Markdown of replies',
    module: /^node_modules\/(?:react-markdown|micromark|remark-gfm)\//
  },
  {
    part: 'the Settings page',
    module: /^src\/renderer\/src\/features\/settings-screen\/settings-screen\.tsx$/
  },
  {
    part: "other features' Settings sections",
    module:
      /^src\/renderer\/src\/features\/\w+\/(?:\w+-section|permission-rules|sandbox-settings)\.tsx$/
  }
]

test("the window's main chunk stays under 700 kB and leaves out what loads on first use", () => {
  const map = rendererChunkMap()
  const first = firstLoadChunks(map)
  // The map's entry is the script the page loads.
  const entry = first.find((chunk) => chunk.isEntry)
  expect(read('out/renderer/index.html')).toContain(`src="./${entry?.file ?? '?'}"`)

  expect(bytesOf(first), `the main chunk: ${first.map((c) => c.file).join(', ')}`).toBeLessThan(
    MAIN_CHUNK_LIMIT
  )
  const firstModules = first.flatMap((chunk) => chunk.modules)
  const allModules = map.chunks.flatMap((chunk) => chunk.modules)
  for (const { part, module } of lazyParts) {
    // Each part is in the build, so the check below could see it if it were back in the main chunk.
    expect(
      allModules.filter((file) => module.test(file)),
      `${part} is built`
    ).not.toEqual([])
    expect(
      firstModules.filter((file) => module.test(file)),
      `${part} loads at start`
    ).toEqual([])
  }
})

test('the same check sees the test code of the testing build', () => {
  ensureTestingBuild()
  const text = read(testingServeEntry)
  expect(bundledModules(text)).toContain('testing/e2e-serve.ts')
  expect(text).toMatch(/allowLoopback:\s*(?:true|!0)/)
})
