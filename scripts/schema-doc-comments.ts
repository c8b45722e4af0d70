// The doc comments of a zod schema's keys, read from its TypeScript source: the schemas in
// src/shared are plain `z.object({...})` literals chained with `.default()`, `.strict()` and the
// like, named by exported constants and imported between files, so the keys' comments can be
// found by following the same expressions the runtime walk follows, without type-checking.
import ts from 'typescript'

/** A schema as written: an expression in a file, and the comments met on the way to it. */
export interface SchemaSource {
  file: string
  expression: ts.Expression
  /** The doc comment of the key or constant the expression was written for, if any. */
  docs: string[]
}

interface ParsedFile {
  /** Top-level `const` declarations by name. */
  constants: Map<string, ts.VariableDeclaration>
  /** Imported names: the local name, and the file and name it comes from. */
  imports: Map<string, { file: string; name: string }>
}

/** The constructor a chain starts from (`object` for `z.object(...)`), with its arguments. */
interface Constructor {
  name: string
  args: readonly ts.Expression[]
  file: string
  docs: string[]
}

/**
 * The files of one folder (`src/shared/settings.ts` and its siblings), parsed once, and the
 * lookups a walk of a schema needs: where a constant is written, and the comments above keys.
 */
export class SchemaSources {
  private readonly files = new Map<string, ParsedFile>()

  /** `texts` maps a repository-relative path (`src/shared/mcp.ts`) to that file's text. */
  constructor(texts: ReadonlyMap<string, string>) {
    for (const [file, text] of texts) this.files.set(file, parse(file, text, texts))
  }

  /** The exported constant `name` of `file`, as a starting point for a walk. */
  constant(file: string, name: string): SchemaSource {
    const found = this.files.get(file)?.constants.get(name)
    if (!found?.initializer) throw new Error(`${file} has no constant ${name}`)
    return { file, expression: found.initializer, docs: docComments(found) }
  }

  /** The key `key` of the object schema `of`, with the doc comment above it. */
  property(of: SchemaSource | undefined, key: string): SchemaSource | undefined {
    const start = this.constructorOf(of)
    if (!start || !['object', 'strictObject', 'looseObject'].includes(start.name)) return undefined
    const literal = start.args[0]
    return literal ? this.findProperty(literal, start.file, key) : undefined
  }

  /** The element schema of `z.array(x)`. */
  element(of: SchemaSource | undefined): SchemaSource | undefined {
    return this.argument(of, 'array', 0)
  }

  /** The value schema of `z.record(key, value)`. */
  recordValue(of: SchemaSource | undefined): SchemaSource | undefined {
    return this.argument(of, 'record', 1)
  }

  /** The options of `z.union([...])` or `z.discriminatedUnion(key, [...])`, in order. */
  options(of: SchemaSource | undefined): (SchemaSource | undefined)[] {
    const start = this.constructorOf(of)
    if (!start) return []
    const list =
      start.name === 'union'
        ? start.args[0]
        : start.name === 'discriminatedUnion'
          ? start.args[1]
          : undefined
    if (!list || !ts.isArrayLiteralExpression(list)) return []
    return list.elements.map((expression) => ({ file: start.file, expression, docs: [] }))
  }

  /**
   * Every comment that describes `of`: its own (a key's), those of the constants it was reached
   * through, and that of a named list a `z.enum(list)` takes its values from. Duplicates dropped.
   */
  comments(of: SchemaSource | undefined): string[] {
    if (!of) return []
    const start = this.constructorOf(of)
    const docs = [...of.docs, ...(start?.docs ?? [])]
    const values = start?.name === 'enum' ? start.args[0] : undefined
    if (values && ts.isIdentifier(values) && start) {
      docs.push(...(this.lookup(start.file, values.text)?.docs ?? []))
    }
    return [...new Set(docs)]
  }

  private argument(
    of: SchemaSource | undefined,
    name: string,
    index: number
  ): SchemaSource | undefined {
    const start = this.constructorOf(of)
    const expression = start?.name === name ? start.args[index] : undefined
    return expression && start ? { file: start.file, expression, docs: [] } : undefined
  }

  /**
   * Follows `of` back to the `z.<constructor>(...)` call it is built from: through method chains
   * (`.default()`, `.strict()`, `.superRefine()`…), constants and imports, and `x.shape.key`.
   */
  private constructorOf(of: SchemaSource | undefined): Constructor | undefined {
    if (!of) return undefined
    let { file, expression } = of
    const docs: string[] = []
    for (let step = 0; step < 100; step++) {
      if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression)) {
        expression = expression.expression
      } else if (ts.isSatisfiesExpression(expression)) {
        expression = expression.expression
      } else if (ts.isIdentifier(expression)) {
        const found = this.lookup(file, expression.text)
        if (!found) return undefined
        docs.push(...found.docs)
        ;({ file, expression } = found)
      } else if (
        ts.isCallExpression(expression) &&
        ts.isPropertyAccessExpression(expression.expression)
      ) {
        const callee = expression.expression
        if (ts.isIdentifier(callee.expression) && callee.expression.text === 'z') {
          return { name: callee.name.text, args: expression.arguments, file, docs }
        }
        expression = callee.expression
      } else if (
        ts.isPropertyAccessExpression(expression) &&
        ts.isPropertyAccessExpression(expression.expression) &&
        expression.expression.name.text === 'shape'
      ) {
        const key = this.property(
          { file, expression: expression.expression.expression, docs: [] },
          expression.name.text
        )
        if (!key) return undefined
        docs.push(...key.docs)
        ;({ file, expression } = key)
      } else {
        return undefined
      }
    }
    return undefined
  }

  /** A constant named `name` as seen from `file`: its own, or one it imports. */
  private lookup(file: string, name: string): SchemaSource | undefined {
    const parsed = this.files.get(file)
    const local = parsed?.constants.get(name)
    if (local?.initializer) return { file, expression: local.initializer, docs: docComments(local) }
    const imported = parsed?.imports.get(name)
    return imported ? this.lookup(imported.file, imported.name) : undefined
  }

  /** A key of an object literal, spreads of named objects (`...keyFields`) included. */
  private findProperty(
    literal: ts.Expression,
    file: string,
    key: string
  ): SchemaSource | undefined {
    if (ts.isIdentifier(literal)) {
      const named = this.lookup(file, literal.text)
      return named ? this.findProperty(named.expression, named.file, key) : undefined
    }
    if (!ts.isObjectLiteralExpression(literal)) return undefined
    // The last one written wins, as in JavaScript.
    for (const member of [...literal.properties].reverse()) {
      if (ts.isPropertyAssignment(member) && propertyName(member.name) === key) {
        return { file, expression: member.initializer, docs: docComments(member) }
      }
      if (ts.isSpreadAssignment(member)) {
        const spread = this.findProperty(member.expression, file, key)
        if (spread) return spread
      }
    }
    return undefined
  }
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined
}

/** The text of the doc comment nearest above `node`, on one line; none gives []. */
function docComments(node: ts.Node): string[] {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc)
  const nearest = docs[docs.length - 1]
  const text = nearest ? ts.getTextOfJSDocComment(nearest.comment) : undefined
  const line = text?.replace(/\s+/g, ' ').trim()
  return line ? [line] : []
}

function parse(file: string, text: string, all: ReadonlyMap<string, string>): ParsedFile {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const constants = new Map<string, ts.VariableDeclaration>()
  const imports = new Map<string, { file: string; name: string }>()
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) constants.set(declaration.name.text, declaration)
      }
    } else if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const target = resolveImport(file, statement.moduleSpecifier.text, all)
      const bindings = statement.importClause?.namedBindings
      if (!target || !bindings || !ts.isNamedImports(bindings)) continue
      for (const element of bindings.elements) {
        imports.set(element.name.text, {
          file: target,
          name: (element.propertyName ?? element.name).text
        })
      }
    }
  }
  return { constants, imports }
}

/** `./mcp` from `src/shared/settings.ts` is `src/shared/mcp.ts`, when that file was given. */
function resolveImport(
  from: string,
  specifier: string,
  all: ReadonlyMap<string, string>
): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const parts = from.split('/').slice(0, -1)
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.') parts.push(part)
  }
  const base = parts.join('/')
  return [`${base}.ts`, `${base}/index.ts`].find((candidate) => all.has(candidate))
}
