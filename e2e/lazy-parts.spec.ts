// The parts of the window loaded on first use (docs/architecture.md, The renderer build): a project
// window opens without them, each arrives when it is first shown and works, and what stands in
// for it meanwhile has its shape (the lazy-* screenshots catch each with its chunk held back).
import type { Page } from '@playwright/test'
import { firstLoadChunks, readChunkMap } from '../scripts/chunk-map'
import { expect, repoRoot, test } from './fixtures/app'
import { sendMessage, waitForTurnEnd } from './fixtures/chat'

/** The file of the chunk, loaded on first use, that holds a module matching `module`. */
function chunkOf(module: RegExp): string {
  const map = readChunkMap(repoRoot)
  const first = firstLoadChunks(map)
  const chunk = map.chunks.find((c) => !first.includes(c) && c.modules.some((m) => module.test(m)))
  if (!chunk) throw new Error(`no chunk loaded on first use holds ${String(module)}`)
  return chunk.file
}

const chunks = {
  markdown: chunkOf(/node_modules\/react-markdown\//),
  highlight: chunkOf(/node_modules\/rehype-highlight\//),
  settings: chunkOf(/features\/settings-screen\/settings-screen\.tsx$/),
  terminal: chunkOf(/node_modules\/@xterm\/xterm\//)
}

/** Holds the page's requests for `file` back until the returned function is called. */
async function holdBack(page: Page, file: string): Promise<() => void> {
  let release = (): void => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(`**/${file}`, async (route) => {
    await released
    await route.continue()
  })
  return release
}

/** Every script the page asked for, by its path under the renderer (`assets/…`). */
function scriptsAskedFor(page: Page): string[] {
  const asked: string[] = []
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.endsWith('.js')) asked.push(pathname.slice(1))
  })
  return asked
}

const reply = 'Here is the fix:\n\n```ts\nconst answer: number = 42\nexport default answer\n```\n'

test('each part a project window does not show at first arrives on first use, in its own shape', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    { text: reply },
    {
      text: 'Starting it in the background.',
      toolCalls: [
        {
          name: 'Shell',
          input: {
            command: "printf 'the lazy terminal is here\\n'; sleep 60",
            background: true,
            description: 'Print and wait'
          }
        }
      ]
    },
    { text: 'Started.' }
  ])
  const asked = scriptsAskedFor(page)
  const releaseMarkdown = await holdBack(page, chunks.markdown)
  const releaseHighlight = await holdBack(page, chunks.highlight)
  await app.openFolder(page)
  for (const part of [chunks.highlight, chunks.settings, chunks.terminal]) {
    expect(asked, 'the project window asked for a part it does not show').not.toContain(part)
  }

  // A reply shows as its own text until the Markdown arrives, then as Markdown, its code
  // highlighted once the highlighter (asked for by the first code block) has come too.
  await sendMessage(page, 'Show me the fix')
  const plainReply = page.locator('.message-assistant__plain')
  await expect(plainReply).toContainText('const answer: number = 42')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'lazy-01-reply-before-markdown')
  releaseMarkdown()
  const block = page.getByTestId('code-block')
  await expect(block.getByTestId('code-language')).toHaveText('ts')
  await expect(plainReply).toHaveCount(0)
  // Plain code first, in the place and size the coloured code then takes: nothing moves.
  const code = block.locator('pre code')
  await expect(code).toHaveText('const answer: number = 42\nexport default answer\n')
  await expect.poll(() => asked.includes(chunks.highlight)).toBe(true)
  const plainBox = await code.boundingBox()
  releaseHighlight()
  await expect(block.locator('.hljs-keyword').first()).toHaveText('const')
  expect(await code.boundingBox()).toEqual(plainBox)

  // Settings show their frame at once and the page when it has come.
  const releaseSettings = await holdBack(page, chunks.settings)
  await page.getByTestId('settings-button').click()
  const loading = page.getByTestId('settings-loading')
  await expect(loading).toBeVisible()
  // The line saying what is coming fades in after a moment; photograph it once it has.
  const opacity = (): Promise<string> =>
    loading.locator('.settings__loading').evaluate((element) => {
      // Runs in the page; the e2e project is typed for Node, without the DOM's globals.
      const dom = globalThis as unknown as {
        getComputedStyle: (element: unknown) => { opacity: string }
      }
      return dom.getComputedStyle(element).opacity
    })
  await expect.poll(opacity).toBe('1')
  await app.screenshot(page, 'lazy-02-settings-loading')
  releaseSettings()
  await expect(page.getByTestId('settings-screen')).toBeVisible()
  await expect(page.getByTestId('mcp-section')).toBeVisible()
  await expect(loading).toHaveCount(0)
  await page.getByTestId('settings-close').click()
  await expect(page.getByTestId('settings-screen')).toHaveCount(0)

  // The terminal: its empty box while xterm.js loads, then the job's output in it.
  const releaseTerminal = await holdBack(page, chunks.terminal)
  await sendMessage(page, 'Start it')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await page.getByTestId('shell-open-job').click()
  const monitor = page.getByTestId('job-monitor')
  await expect(monitor.getByTestId('job-terminal-loading')).toBeVisible()
  await app.screenshot(page, 'lazy-03-terminal-loading')
  releaseTerminal()
  await expect(monitor.getByTestId('job-terminal')).toContainText('the lazy terminal is here')
  await expect(monitor.getByTestId('job-terminal-loading')).toHaveCount(0)
  await monitor.getByTestId('job-stop').click()
  await expect(monitor.getByTestId('job-row')).toHaveAttribute('data-state', 'stopped')
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})
