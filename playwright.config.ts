import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// The e2e tests drive the system Chromium (Debian's package): Playwright never downloads a browser
// here, so a missing one must stop the run with the fix, not fail every test obscurely.
const chromiumPath = process.env['MECATL_CHROMIUM'] ?? '/usr/bin/chromium'
if (!existsSync(chromiumPath)) {
  throw new Error(
    `Chromium not found at ${chromiumPath}: install it with \`apt-get install -y chromium\` ` +
      '(or set MECATL_CHROMIUM to a Chromium binary)'
  )
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  // A failed test runs once more with a trace (`trace: 'on-first-retry'`): every failure comes
  // with one, and no passing test pays for recording it (it made the suite a third slower). A
  // test that passes only on its retry is reported as flaky, by name, in the list's summary.
  retries: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env['CI']),
  reporter: 'list',
  use: {
    screenshot: 'only-on-failure',
    trace: 'on-first-retry',
    viewport: { width: 1280, height: 800 }
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: chromiumPath,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update'
          ]
        }
      }
    }
  ]
})
