// ESLint for the whole repository, with the layer arrows of DESIGN.md (Layers) as rules. The
// arrows between files, the tiers of src/main among them, are layers.mjs's; src/layering.test.ts
// applies the same arrows to the whole tree, with the import forms lint does not see.
import path from 'node:path'
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'
import { fileArrows, inside, tierOf, why } from './layers.mjs'

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

// no-restricted-imports sees package names as written; relative paths need resolving against
// the importing file to know which layer they land in.
const layersPlugin = {
  rules: {
    'relative-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = path.relative(root, context.filename).split(path.sep).join('/')
        const arrows = fileArrows.filter((arrow) => arrow.appliesTo(file))
        if (arrows.length === 0) return {}
        const check = (node) => {
          if (node?.type !== 'Literal' || typeof node.value !== 'string') return
          if (!node.value.startsWith('.')) return
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), node.value))
          for (const arrow of arrows) {
            if (!arrow.allows(target, file)) {
              context.report({ node, message: `imports ${target} (${arrow.why})` })
            }
          }
        }
        return {
          // A folder new to src/main is placed in the tiers before anything may import it.
          Program: (node) => {
            if (inside(file, 'src/main') && tierOf(file) === undefined) {
              context.report({ node, message: `is in no tier (${why.tiers})` })
            }
          },
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
    languageOptions: { globals: nodeGlobals },
    // JavaScript cannot state its types: a module TypeScript imports has a .d.mts (layers.mjs).
    rules: { '@typescript-eslint/explicit-module-boundary-types': 'off' }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended
  },

  // The layer arrows.
  {
    files: ['src/**/*.{ts,tsx,mts,cts}', 'testing/**/*.{ts,tsx,mts,cts}'],
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
    // Its tests sit beside it and take vitest too, nothing else.
    files: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|vitest$|\\.)',
              message:
                'src/shared (and its tests, which add vitest) imports zod and its own files only'
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
  // Deadlines and bodies that a garbage collection cannot take away (see src/main/net/deadline.ts
  // and abortable-fetch.ts): a request to a server that went quiet must still end.
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/**/*.test.ts', 'testing/**', 'src/main/net/abortable-fetch.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'AbortSignal',
          property: 'timeout',
          message: 'use deadline() from src/main/net/deadline.ts: it holds its signal and clears'
        },
        {
          object: 'AbortSignal',
          property: 'any',
          message: 'use deadline(ms, parent) from src/main/net/deadline.ts'
        }
      ],
      'no-restricted-globals': [
        'error',
        {
          name: 'fetch',
          message:
            'use abortableFetch from src/main/net/abortable-fetch.ts: its body obeys the signal'
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
