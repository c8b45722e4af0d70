import { createRequire } from 'node:module'
import { Language, Parser, type Tree } from 'web-tree-sitter'

const requireHere = createRequire(__filename)
let loading: Promise<Parser> | null = null

/**
 * tree-sitter-bash through web-tree-sitter: the real bash grammar, in WebAssembly, so permission
 * rules see the commands the shell would run and not a string that looks like them.
 */
export async function parseBash(script: string): Promise<Tree> {
  loading ??= load()
  const parser = await loading
  const tree = parser.parse(script)
  if (!tree) throw new Error('the bash parser returned no tree')
  return tree
}

async function load(): Promise<Parser> {
  await Parser.init()
  const language = await Language.load(
    requireHere.resolve('tree-sitter-bash/tree-sitter-bash.wasm')
  )
  const parser = new Parser()
  parser.setLanguage(language)
  return parser
}
