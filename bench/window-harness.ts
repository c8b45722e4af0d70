// What the window benchmarks share: the built renderer and a system Chromium driven through
// playwright-core, a settings file that opens the project rather than the first-run screen, and
// a project window opened the way a person opens it the first time.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Where the window benchmarks find their Chromium and the built renderer. */
export interface WindowParts {
  executablePath: string
  rendererDir: string
}

/**
 * The Chromium binary and the built renderer, or null after printing `<label>: skipped` with
 * what is missing: these benchmarks need `/usr/bin/chromium` (or MECATL_CHROMIUM) and a build.
 */
export function windowParts(label: string): WindowParts | null {
  const executablePath = process.env.MECATL_CHROMIUM ?? '/usr/bin/chromium'
  const rendererDir = path.resolve('out', 'renderer')
  if (!existsSync(executablePath) || !existsSync(path.join(rendererDir, 'index.html'))) {
    console.log(
      `${label}: skipped (needs Chromium at MECATL_CHROMIUM or /usr/bin/chromium, and \`npm run build\`)`
    )
    return null
  }
  return { executablePath, rendererDir }
}

/**
 * A settings file with one provider nobody answers at, so the window opens the project instead
 * of the first-run settings, for benchmarks that send no turn.
 */
export const idleProviderSettings = [
  'providers:',
  '  - { id: idle, kind: openai-compatible, base_url: "http://127.0.0.1:9/v1", models: [idle] }',
  'default_model: { provider: idle, model: idle }',
  ''
].join('\n')

/** The system Chromium, headless, without the background work that would blur a measurement. */
export function launchChromium(parts: WindowParts): Promise<Browser> {
  return chromium.launch({
    executablePath: parts.executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update'
    ]
  })
}

/** How a benchmark's window opens. */
export interface WindowOptions {
  /** Runs before the page's own scripts. */
  initScript?: string
  /** 1280×800 unless told. */
  viewport?: { width: number; height: number }
}

/**
 * A new page on the browser-mode `url` of a project, past the question a folder opened for the
 * first time asks (the benchmark's own folder: its authors are trusted), with the composer up.
 */
export async function openProjectWindow(
  browser: Browser,
  url: string,
  options: WindowOptions = {}
): Promise<Page> {
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 800 } })
  if (options.initScript !== undefined) await page.addInitScript(options.initScript)
  await page.goto(url)
  await page.getByTestId('folder-trust-dialog').getByTestId('folder-trust-yes').click()
  await page.getByTestId('composer-input').waitFor()
  return page
}
