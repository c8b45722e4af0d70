// Cycles among the imports a module runs as it loads, for src/layering.test.ts. A cycle there
// means one of its modules is used before it has finished loading (an undefined class at the top
// level of another, depending on which was imported first); type imports and a dynamic import()
// run nothing at load time, so they do not count.
import path from 'node:path'
import ts from 'typescript'
import type { SourceText } from './layer-rules'

/** Whether an import or export runs nothing as the module loads: it names types only. */
export function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    const clause = statement.exportClause
    return (
      statement.isTypeOnly ||
      (clause !== undefined &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((element) => element.isTypeOnly))
    )
  }
  const clause = statement.importClause
  const bindings = clause?.namedBindings
  return (
    clause?.isTypeOnly === true ||
    (clause !== undefined &&
      clause.name === undefined &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every((element) => element.isTypeOnly))
  )
}

/** The relative modules a file runs as it loads: value imports and re-exports, side effects. */
function loadTimeImports(file: SourceText): string[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      !isTypeOnly(statement)
    ) {
      specifier = statement.moduleSpecifier
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push(
        path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier.text))
      )
    }
  }
  return found
}

/** Each group of files that import one another at load time, as `a, b, c` (sorted). */
export function loadTimeCycles(files: readonly SourceText[]): string[] {
  const paths = new Set(files.map((file) => file.path))
  const resolve = (target: string): string | undefined =>
    ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
      .map((ending) => `${target}${ending}`)
      .find((candidate) => paths.has(candidate))
  const edges = new Map<string, string[]>()
  for (const file of files) {
    const targets = loadTimeImports(file).map(resolve)
    edges.set(
      file.path,
      targets.filter((target): target is string => target !== undefined)
    )
  }
  // Tarjan's strongly connected components: every group of two or more is a cycle.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[] = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file) ?? 0)
    stack.push(file)
    onStack.add(file)
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const group: string[] = []
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member)
      group.push(member)
      if (member === file) break
    }
    if (group.length > 1) cycles.push(group.sort().join(', '))
  }
  for (const file of edges.keys()) if (!index.has(file)) visit(file)
  return cycles.sort()
}
