// Uses of a module before it has loaded, for src/layering.test.ts. The window's features sit on
// tiers and form no import cycle today; should one come back, it is harmless only while a module
// touches what it imports when called (a component rendering, an action running). One that reads
// an import as it loads (`const dispatch = useX.getState()...`) finds it not yet there when the
// cycle was entered elsewhere, and the window fails to start: this finds such reads.
import path from 'node:path'
import ts from 'typescript'
import { isTypeOnly } from './import-cycles'
import type { SourceText } from './layer-rules'

interface ModuleFacts {
  /** The relative modules it runs as it loads, in source order. */
  imports: string[]
  /** Its value imports from relative modules: local name → specifier. */
  bindings: Map<string, string>
  /** Where it reads an imported name as it loads: name and line. */
  uses: { name: string; line: number }[]
}

function factsOf(file: SourceText): ModuleFacts {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true)
  const imports: string[] = []
  const bindings = new Map<string, string>()
  const functions = new Map<string, ts.Node>()
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) {
      const specifier = statement.moduleSpecifier
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue
      if (isTypeOnly(statement)) continue
      imports.push(specifier.text)
      const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined
      if (clause?.name) bindings.set(clause.name.text, specifier.text)
      const named = clause?.namedBindings
      if (named && ts.isNamespaceImport(named)) bindings.set(named.name.text, specifier.text)
      if (named && ts.isNamedImports(named)) {
        for (const element of named.elements) {
          if (!element.isTypeOnly) bindings.set(element.name.text, specifier.text)
        }
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      functions.set(statement.name.text, statement)
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer
        if (ts.isIdentifier(declaration.name) && init && ts.isFunctionLike(init)) {
          functions.set(declaration.name.text, init)
        }
      }
    }
  }
  // What runs as the module loads: its top level outside function bodies, and the bodies of its
  // own functions that the top level calls.
  const uses: ModuleFacts['uses'] = []
  const entered = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))
      return
    if (ts.isFunctionLike(node)) return
    if (ts.isIdentifier(node) && bindings.has(node.text)) {
      const parent = node.parent
      const isMemberName = ts.isPropertyAccessExpression(parent) && parent.name === node
      const isKey = ts.isPropertyAssignment(parent) && parent.name === node
      if (!isMemberName && !isKey) {
        uses.push({
          name: node.text,
          line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1
        })
      }
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const called = functions.get(node.expression.text)
      if (called && !entered.has(node.expression.text)) {
        entered.add(node.expression.text)
        ts.forEachChild(called, (child) => {
          if (!ts.isParameter(child)) visit(child)
        })
      }
    }
    ts.forEachChild(node, visit)
  }
  for (const statement of source.statements) visit(statement)
  return { imports, bindings, uses }
}

/**
 * Loads the modules from `entry` the way ES modules run (depth first, imports in source order, a
 * module after everything it imports unless that is still loading further up) and returns each
 * place a module reads an import whose module has not finished loading, as
 * `file:line: reads name of module before that has loaded`.
 */
export function usesBeforeLoad(files: readonly SourceText[], entry: string): string[] {
  const byPath = new Map(files.map((file) => [file.path, file]))
  const resolve = (from: string, specifier: string): string | undefined => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))
    return ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
      .map((ending) => `${target}${ending}`)
      .find((candidate) => byPath.has(candidate))
  }
  const started = new Set<string>()
  const loaded = new Set<string>()
  const found: string[] = []
  const load = (file: string): void => {
    const text = byPath.get(file)
    if (!text || started.has(file)) return
    started.add(file)
    const facts = factsOf(text)
    for (const specifier of facts.imports) {
      const target = resolve(file, specifier)
      if (target) load(target)
    }
    for (const use of facts.uses) {
      const specifier = facts.bindings.get(use.name) ?? ''
      const target = resolve(file, specifier)
      if (target && !loaded.has(target)) {
        found.push(`${file}:${use.line}: reads ${use.name} of ${target} before that has loaded`)
      }
    }
    loaded.add(file)
  }
  load(entry)
  return found
}
