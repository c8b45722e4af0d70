// ESLint for the whole repository, with the layer arrows of DESIGN.md (Layers) as rules.
// src/layering.test.ts checks the same arrows independently, including the import forms lint
// does not see (dynamic import() and require() of packages).
import path from 'node:path'
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const root = import.meta.dirname

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'))

// Node's own globals, taken from the Node running ESLint: for the repository's .mjs scripts.
const nodeGlobals = Object.fromEntries(
  Object.getOwnPropertyNames(globalThis)
    .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))
    .map((name) => [name, 'readonly'])
)

const rawIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message:
    'raw IPC lives only in src/main/electron/ipc-transport.ts and src/preload/index.ts; go through the rpc contract'
}

/** Where a relative import may land, per layer; paths are repository-relative. */
const relativeArrows = {
  'src/shared': {
    allows: (target) => inside(target, 'src/shared'),
    why: 'src/shared imports zod and its own files only'
  },
  'src/renderer': {
    allows: (target) => inside(target, 'src/renderer') || inside(target, 'src/shared'),
    why: 'src/renderer imports src/shared and its own files only'
  },
  'src/preload': {
    allows: (target) => inside(target, 'src/preload') || inside(target, 'src/shared/contract'),
    why: 'src/preload imports electron and src/shared/contract only'
  },
  'src/main': {
    allows: (target) => !inside(target, 'src/renderer') && !inside(target, 'src/preload'),
    why: 'src/main does not import the renderer or the preload'
  }
}

function inside(target, dir) {
  return target === dir || target.startsWith(`${dir}/`)
}

// no-restricted-imports sees package names as written; relative paths need resolving against
// the importing file to know which layer they land in.
const layersPlugin = {
  rules: {
    'relative-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = path.relative(root, context.filename).split(path.sep).join('/')
        const layer = Object.keys(relativeArrows).find((dir) => inside(file, dir))
        if (!layer) return {}
        const arrow = relativeArrows[layer]
        const check = (node) => {
          if (node?.type !== 'Literal' || typeof node.value !== 'string') return
          if (!node.value.startsWith('.')) return
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), node.value))
          if (!arrow.allows(target)) {
            context.report({ node, message: `imports ${target} (${arrow.why})` })
          }
        }
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
          TSImportEqualsDeclaration: (node) => check(node.moduleReference.expression),
          'CallExpression[callee.type="Identifier"][callee.name="require"]': (node) =>
            check(node.arguments[0])
        }
      }
    }
  }
}

export default defineConfig(
  globalIgnores([
    'out/',
    'dist/',
    'node_modules/',
    'e2e/artifacts/',
    'test-results/',
    'playwright-report/',
    'bench/.data/',
    '.mecatl-home/'
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
      ]
    }
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended
  },

  // The layer arrows.
  {
    files: ['src/**/*.{ts,tsx,mts,cts}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/relative-imports': 'error' }
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.)',
              message: 'src/shared imports zod and its own files only: no node:*, electron or DOM'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'the renderer is a web page: no Node built-ins'
            })),
            {
              name: 'electron',
              message: 'the renderer reaches the main process only via the bridge'
            }
          ],
          patterns: [
            { regex: '^node:', message: 'the renderer is a web page: no Node built-ins' },
            {
              regex: '^electron/',
              message: 'the renderer reaches the main process only via the bridge'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['src/main/**'],
    ignores: ['src/main/electron/**', 'src/main/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message:
                'only src/main/electron/** and src/main/index.ts may import electron; the core runs without it'
            }
          ],
          patterns: [
            {
              regex: '^electron/',
              message: 'only src/main/electron/** and src/main/index.ts may import electron'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['src/main/electron/**', 'src/main/index.ts'],
    ignores: ['src/main/electron/ipc-transport.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [rawIpc] }] }
  },
  {
    files: ['src/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [rawIpc],
          patterns: [
            {
              regex: '^(?!electron$|\\.)',
              message: 'src/preload imports electron and src/shared/contract only'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['src/preload/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!electron$|\\.)',
              message: 'src/preload imports electron and src/shared/contract only'
            }
          ]
        }
      ]
    }
  }
)
