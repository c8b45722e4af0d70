import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The layer arrows of DESIGN.md (Layers), checked on every .ts/.tsx file under src, tests
// included. eslint.config.mjs enforces the same arrows while editing; this test is the backstop
// that also sees dynamic import(), require() and `/// <reference types>`.

interface SourceText {
  /** Repository-relative, with forward slashes. */
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
  allows(target: Target): boolean
  why: string
}

const repoRoot = path.resolve(import.meta.dirname, '..')

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

const rules: readonly LayerRule[] = [
  {
    appliesTo: (file) => inside(file, 'src/shared'),
    allows: (t) =>
      isPackage(t, (n) => n === 'zod' || n.startsWith('zod/')) || isFileIn(t, 'src/shared'),
    why: 'src/shared imports zod and its own files only'
  },
  {
    appliesTo: (file) => inside(file, 'src/renderer'),
    allows: (t) =>
      t.kind === 'package'
        ? !isNodeBuiltin(t.name) && !isElectron(t.name)
        : isFileIn(t, 'src/renderer', 'src/shared'),
    why: 'src/renderer imports src/shared, its own files and web packages only: no node:*, electron or main'
  },
  {
    appliesTo: (file) =>
      inside(file, 'src/main') &&
      !inside(file, 'src/main/electron') &&
      file !== 'src/main/index.ts',
    allows: (t) => !isPackage(t, isElectron),
    why: 'only src/main/electron/** and src/main/index.ts may import electron'
  },
  {
    appliesTo: (file) => inside(file, 'src/main'),
    allows: (t) => !isFileIn(t, 'src/renderer', 'src/preload'),
    why: 'src/main does not import the renderer or the preload'
  },
  {
    appliesTo: (file) => inside(file, 'src/preload'),
    allows: (t) =>
      isPackage(t, (n) => n === 'electron') || isFileIn(t, 'src/preload', 'src/shared/contract'),
    why: 'src/preload imports electron and src/shared/contract only'
  }
]

/** Every module a file names: static and type imports, re-exports, import(), require(). */
function importsOf(file: SourceText): ImportRef[] {
  const source = parse(file)
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
function rawIpcLines(file: SourceText): number[] {
  const source = parse(file)
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

/** Each crossed arrow as `file:line: imports X (rule)`. */
function findViolations(files: readonly SourceText[]): string[] {
  const violations: string[] = []
  for (const file of files) {
    const applicable = rules.filter((rule) => rule.appliesTo(file.path))
    for (const ref of importsOf(file)) {
      const target = targetOf(file.path, ref.specifier)
      const shown = target.kind === 'file' ? target.path : target.name
      for (const rule of applicable) {
        if (!rule.allows(target))
          violations.push(`${file.path}:${ref.line}: imports ${shown} (${rule.why})`)
      }
    }
    if (inside(file.path, 'src') && !RAW_IPC_FILES.includes(file.path)) {
      for (const line of rawIpcLines(file)) {
        violations.push(
          `${file.path}:${line}: uses raw IPC (only ${RAW_IPC_FILES.join(' and ')} may touch ipcMain/ipcRenderer)`
        )
      }
    }
  }
  return violations
}

function sourceFilesUnder(dir: string): SourceText[] {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|tsx|mts|cts)$/.test(name))
    .map((name) => {
      const relative = path.posix.join(dir, name.split(path.sep).join('/'))
      return { path: relative, text: readFileSync(path.join(repoRoot, relative), 'utf8') }
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1))
}

describe('layering', () => {
  it('no file under src crosses a layer arrow', () => {
    const files = sourceFilesUnder('src')
    // Guard against a walk that silently finds nothing (or the wrong folder).
    const paths = files.map((file) => file.path)
    expect(paths).toContain('src/shared/domain.ts')
    expect(paths).toContain('src/main/index.ts')
    expect(paths).toContain('src/renderer/src/main.tsx')
    expect(paths).toContain('src/layering.test.ts')
    expect(findViolations(files)).toEqual([])
  })

  it('sees every import form and flags every arrow, so it cannot pass vacuously', () => {
    const fake: SourceText[] = [
      {
        path: 'src/shared/bad.ts',
        text: [
          '/// <reference types="node" />',
          "import { z } from 'zod'",
          "import { x } from './domain'",
          "import { readFile } from 'node:fs/promises'",
          "export { y } from '../main/core'",
          "import type { Z } from '../renderer/src/main'",
          "import React from 'react'",
          'export const v = [z, x, readFile, React]'
        ].join('\n')
      },
      {
        path: 'src/renderer/src/features/chat/bad.tsx',
        text: [
          "import { calls } from '../../../../shared/contract'",
          "import { useState } from 'react'",
          "import { helper } from '../../lib/format'",
          "import fs = require('fs')",
          "const p = require('path')",
          "export const load = () => import('../../../../main/core')",
          "export type E = typeof import('electron')",
          "export * from '../../../../preload/index'",
          'export const v = <div>{String([calls, useState, helper, fs, p])}</div>'
        ].join('\n')
      },
      {
        path: 'src/main/agent/bad.ts',
        text: [
          'import { app } from ' + "'electron'",
          "import { ipcMain } from 'electron/main'",
          "import { z } from 'zod'",
          "import { readFile } from 'node:fs/promises'",
          "import { Catalog } from '../tools/catalog'",
          "import { x } from '../../renderer/src/lib/format'",
          "// ipcRenderer in a comment is fine, and so is 'ipcMain' in a string",
          'export const v = [app, ipcMain, z, readFile, Catalog, x]'
        ].join('\n')
      },
      {
        path: 'src/main/electron/window.ts',
        text:
          'import * as electron from ' + "'electron'\nexport const send = electron.ipcMain.emit\n"
      },
      {
        path: 'src/main/electron/ipc-transport.ts',
        text: 'import { app, ipcMain } from ' + "'electron'\nexport const v = [app, ipcMain]\n"
      },
      {
        path: 'src/main/index.ts',
        text:
          'import { app } from ' +
          "'electron'\nimport { core } from './core'\nexport const v = [app, core]\n"
      },
      {
        path: 'src/preload/index.ts',
        text: [
          'import { contextBridge, ipcRenderer } from ' + "'electron'",
          "import { isCallName } from '../shared/contract/names'",
          "import { calls } from '../shared/contract'",
          "import { z } from 'zod'",
          "import { x } from '../shared/domain'",
          'export const v = [contextBridge, ipcRenderer, isCallName, calls, z, x]'
        ].join('\n')
      }
    ]
    const shared = 'src/shared imports zod and its own files only'
    const renderer =
      'src/renderer imports src/shared, its own files and web packages only: no node:*, electron or main'
    const electronOnly = 'only src/main/electron/** and src/main/index.ts may import electron'
    const noUi = 'src/main does not import the renderer or the preload'
    const preload = 'src/preload imports electron and src/shared/contract only'
    const rawIpc =
      'uses raw IPC (only src/main/electron/ipc-transport.ts and src/preload/index.ts may touch ipcMain/ipcRenderer)'
    expect(findViolations(fake).sort()).toEqual(
      [
        `src/shared/bad.ts:1: imports node (${shared})`,
        `src/shared/bad.ts:4: imports node:fs/promises (${shared})`,
        `src/shared/bad.ts:5: imports src/main/core (${shared})`,
        `src/shared/bad.ts:6: imports src/renderer/src/main (${shared})`,
        `src/shared/bad.ts:7: imports react (${shared})`,
        `src/renderer/src/features/chat/bad.tsx:4: imports fs (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:5: imports path (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:6: imports src/main/core (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:7: imports electron (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:8: imports src/preload/index (${renderer})`,
        `src/main/agent/bad.ts:1: imports electron (${electronOnly})`,
        `src/main/agent/bad.ts:2: imports electron/main (${electronOnly})`,
        `src/main/agent/bad.ts:6: imports src/renderer/src/lib/format (${noUi})`,
        `src/main/agent/bad.ts:2: ${rawIpc}`,
        `src/main/agent/bad.ts:8: ${rawIpc}`,
        `src/main/electron/window.ts:2: ${rawIpc}`,
        `src/preload/index.ts:4: imports zod (${preload})`,
        `src/preload/index.ts:5: imports src/shared/domain (${preload})`
      ].sort()
    )
  })
})
