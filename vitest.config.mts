import { defineConfig } from 'vitest/config'

// Integration tests start real processes (Shell jobs, git, ripgrep, MCP servers, bubblewrap, the
// CLI as a child); unit tests start none, which no-processes.ts enforces. `npm test` runs both.
const INTEGRATION = [
  'src/**/*.integration.test.ts',
  'testing/**/*.integration.test.ts',
  'scripts/**/*.integration.test.ts'
]

export default defineConfig({
  test: {
    exclude: ['e2e/**', 'node_modules/**', 'out/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // vitest's default for `run` is one worker fewer than the cores: on a 2-core machine that is
    // one, and the suite ran file after file while half of it waited on child processes and
    // sockets. Two keep both cores busy without the third worker's contention.
    maxWorkers: 2,
    // Each test file is still run afresh, but a worker keeps the modules it imported between
    // files: importing the core (SDKs, zod schemas, tree-sitter) again for every file was a third
    // of the suite's CPU time. Nothing in src keeps per-test state at module level; a test that
    // needs a fresh module says so with vi.resetModules().
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'src/**/*.test.tsx',
            'testing/**/*.test.ts',
            'scripts/**/*.test.ts'
          ],
          exclude: [...INTEGRATION, 'e2e/**', 'node_modules/**', 'out/**'],
          setupFiles: ['testing/no-processes.ts']
        }
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION } }
    ]
  }
})
