// The production build (out/main, out/preload, out/renderer, built by the global setup) holds no
// test code: no module of testing or e2e, no symbol only test code declares, and no way
// to widen the web guard. The testing build in out/testing proves the check can see test code.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import ts from 'typescript'
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

  // The module list is what the check stands on: without it (a minified build, say) it fails
  // rather than passing on nothing.
  const modules = bundledModules(text)
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

test('the same check sees the test code of the testing build', () => {
  ensureTestingBuild()
  const text = read(testingServeEntry)
  expect(bundledModules(text)).toContain('testing/e2e-serve.ts')
  expect(text).toMatch(/allowLoopback:\s*(?:true|!0)/)
})
