import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import v8 from 'node:v8'
import { Language, Parser, type Tree } from 'web-tree-sitter'

const requireHere = createRequire(__filename)

// The part of the WebAssembly global used here: @types/node 20 does not declare it (only the DOM
// library does, which src/main does not load).
type CompiledModule = { readonly compiled: unique symbol }
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => CompiledModule
      Instance: new (module: CompiledModule, imports: object) => object
    }
  }
).WebAssembly

/** Where the parser stands: not asked yet, loading, ready to parse, or its last load failed. */
export type BashParserState = 'idle' | 'warming' | 'ready' | 'failed'

/** The first line the warm-up parses: one with the constructs model-written lines are made of. */
const WARM_UP_LINE = [
  'cd src && ls -la | grep -v "^total" > /dev/null 2>&1 || echo "none: $(pwd)"',
  'for f in *.ts; do wc -l "$f"; done; x=$((1 + 2)) bash -c \'cat <<EOF\nline\nEOF\''
].join('\n')

/**
 * tree-sitter-bash through web-tree-sitter: the real bash grammar, in WebAssembly, so permission
 * rules see the commands the shell would run and not a string that looks like them.
 *
 * Loading it is started early (`warm`, at core start) so that the first Shell call of a session
 * costs what the second does; a line that arrives before the parser is ready waits for it, and
 * one that arrives after a failed load is refused with the reason (and the load tried again).
 */
export class BashParser {
  private loading: Promise<Parser> | null = null
  private current: BashParserState = 'idle'

  /** `grammar`: the tree-sitter-bash WebAssembly file (the installed one unless told). */
  constructor(
    private readonly grammar = requireHere.resolve('tree-sitter-bash/tree-sitter-bash.wasm')
  ) {}

  get state(): BashParserState {
    return this.current
  }

  /** Starts loading the parser if nothing has; resolves once it is ready or failed, never rejects. */
  warm(): Promise<void> {
    return this.ready().then(
      () => undefined,
      () => undefined
    )
  }

  async parse(script: string): Promise<Tree> {
    const parser = await this.ready()
    const tree = parser.parse(script)
    if (!tree) throw new Error('the bash parser returned no tree')
    return tree
  }

  private ready(): Promise<Parser> {
    if (!this.loading) {
      this.current = 'warming'
      this.loading = load(this.grammar).then(
        (parser) => {
          this.current = 'ready'
          return parser
        },
        (error: unknown) => {
          // The call that meets the failure is refused with it; the next one tries again.
          this.current = 'failed'
          this.loading = null
          throw new Error(
            `the shell parser (tree-sitter-bash) could not be loaded, so no command line can be judged and none is run: ${error instanceof Error ? error.message : String(error)}. Reinstalling Mecatl (in a checkout: npm ci) restores it.`,
            { cause: error }
          )
        }
      )
    }
    return this.loading
  }
}

/** The process's one parser: the gate's rules, the approval dialog and rule examples share it. */
export const bashParser = new BashParser()

/** Starts loading the process's parser in the background (see `BashParser.warm`). */
export function warmBashParser(): Promise<void> {
  return bashParser.warm()
}

/** A bash line's syntax tree, from the process's parser; the caller deletes it. */
export function parseBash(script: string): Promise<Tree> {
  return bashParser.parse(script)
}

// web-tree-sitter's runtime is one per process (Parser.init keeps the first), shared by every
// grammar loaded into it.
let runtime: Promise<void> | null = null

async function load(grammarFile: string): Promise<Parser> {
  runtime ??= startRuntime().catch((error: unknown) => {
    runtime = null
    throw error
  })
  const [, grammarBytes] = await Promise.all([runtime, readFile(grammarFile)])
  const parser = new Parser()
  parser.setLanguage(Language.loadSync(compileAtBaselineTier(grammarBytes)))
  // V8 compiles each WebAssembly function on its first call: parsing once here does that for
  // the functions every line needs, so the first Shell call does not.
  parser.parse(WARM_UP_LINE)?.delete()
  return parser
}

async function startRuntime(): Promise<void> {
  const bytes = await readFile(requireHere.resolve('web-tree-sitter/web-tree-sitter.wasm'))
  const compiled = compileAtBaselineTier(bytes)
  await Parser.init({
    // Emscripten's hook for a module compiled by its host: instantiate it and hand both back.
    instantiateWasm(imports: object, receive: (instance: object, module: CompiledModule) => void) {
      receive(new wasm.Instance(compiled, imports), compiled)
      return {}
    }
  })
}

/**
 * Compiles WebAssembly for V8's baseline compiler (Liftoff) only. By default V8 also recompiles
 * a module's hot functions with its optimising compiler on background threads, and for
 * tree-sitter-bash's lexer that took 0.7 s of CPU under Node 20 (seconds on a loaded machine),
 * during which Node blocks the event loop whenever it runs out of other work (it waits for the
 * platform's background tasks before deciding the loop is done): the first Shell call of a
 * session took 1–7 s. The optimised code buys nothing here (a command line parses in well under
 * a millisecond either way), so this module is kept at the baseline tier. V8 decides a module's
 * tiers when it compiles it, so the flag is set only around this synchronous compile, and no
 * other code runs while it is (Node and Electron both leave V8's flags writable for this API).
 */
function compileAtBaselineTier(bytes: Uint8Array): CompiledModule {
  // Started with the flag already on: leave it as it was.
  const already = process.execArgv.some((arg) => /^--liftoff[-_]only$/.test(arg))
  if (!already) v8.setFlagsFromString('--liftoff-only')
  try {
    return new wasm.Module(bytes)
  } finally {
    if (!already) v8.setFlagsFromString('--no-liftoff-only')
  }
}
