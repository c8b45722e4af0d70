// Shell in the window: a background job watched and stopped in the job monitor, and a foreground
// command whose live output shows in its card until the person stops it.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, test } from './fixtures/app'
import { plain, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

// Scripts that print like a dev server (colours, its local address with the port in bold, then a
// line a beat) and a test runner, written into the workspace so the commands read as real ones.
const devScript = `#!/bin/bash
printf '\\n  \\033[1;32mVITE\\033[0m \\033[32mv5.4.0\\033[0m  ready in \\033[1m312\\033[0m ms\\n\\n'
printf '  \\033[32m➜\\033[0m  \\033[1mLocal\\033[0m:   \\033[36mhttp://localhost:\\033[1m5173\\033[22m/\\033[39m\\n'
printf '  \\033[2m➜  Network: use --host to expose\\033[0m\\n\\n'
i=0
while true; do
  i=$((i + 1))
  printf '\\033[2m%s\\033[0m \\033[36m[vite]\\033[0m hmr update \\033[33m/src/app.ts\\033[0m \\033[2m(x%d)\\033[0m\\n' "$(date +%T)" "$i"
  sleep 0.25
done
`
const testScript = `#!/bin/bash
for i in $(seq 1 400); do
  printf '\\033[32m✓\\033[0m src/greet.test.ts \\033[2m>\\033[0m greets case %d \\033[2m(%d ms)\\033[0m\\n' "$i" "$((i % 7 + 1))"
  sleep 0.1
done
`

function writeScripts(workspace: string): void {
  mkdirSync(path.join(workspace, 'scripts'), { recursive: true })
  writeFileSync(path.join(workspace, 'scripts', 'dev.sh'), devScript)
  writeFileSync(path.join(workspace, 'scripts', 'test.sh'), testScript)
}

test('a background job shows its live output in the monitor and stops with its button', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'I will start the dev server in the background.',
      toolCalls: [
        {
          name: 'Shell',
          input: {
            command: 'bash scripts/dev.sh --port 5173',
            background: true,
            description: 'Start the dev server'
          }
        }
      ]
    },
    (req) => ({ text: `Done. ${plain(latestToolResults(req)[0]?.content ?? 'no result')}` })
  ])
  writeScripts(app.workspace)
  await app.openFolder(page)
  await sendMessage(page, 'Start the dev server')

  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(modal).toContainText('in the background')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await expect(toolCards(page, 'Shell')).toHaveAttribute('data-state', 'done')
  // Job ids count up in the server: this worker's other tests may have started some before.
  const reply = page.getByTestId('message-assistant').last()
  await expect(reply).toContainText(/Started bashcmd-\d+ in the background/)
  const job = /Started (bashcmd-\d+) in the background/.exec(await reply.innerText())?.[1]
  await expect(page.getByTestId('jobs-running-count')).toHaveText('1')

  // The card links to the job its result names as a field, and the link opens the monitor on it.
  const open = toolCards(page, 'Shell').getByTestId('shell-open-job')
  await expect(open).toHaveText(`Show ${job} in the job monitor`)
  await open.click()
  const monitor = page.getByTestId('job-monitor')
  await expect(monitor).toBeVisible()
  const row = monitor.getByTestId('job-row')
  await expect(row).toHaveCount(1)
  await expect(row).toHaveAttribute('data-state', 'running')
  await expect(row).toContainText('Start the dev server')
  const terminal = monitor.getByTestId('job-terminal')
  await expect(terminal).toContainText('ready in 312 ms')
  // Live: lines keep arriving while the monitor is open.
  await expect(terminal).toContainText('(x3)')
  await expect(terminal).toContainText('(x5)')
  const link = monitor.getByTestId('job-link')
  await expect(link).toHaveText('http://localhost:5173/')
  await expect(link).toHaveAttribute('href', 'http://localhost:5173/')

  await monitor.getByTestId('job-stop').click()
  await expect(row).toHaveAttribute('data-state', 'stopped')
  await expect(monitor.getByTestId('job-detail').getByTestId('job-state')).toHaveText('Stopped')
  await expect(monitor.getByTestId('job-outcome')).toHaveText('stopped by the person')
  await expect(page.getByTestId('jobs-running-count')).toHaveCount(0)
  // The output stays to be read after the job has ended.
  await expect(terminal).toContainText('hmr update')

  await monitor.getByTestId('job-dismiss').click()
  await expect(monitor.getByTestId('job-monitor-empty')).toBeVisible()
  expect(app.fakeModel.exhaustedRequests()).toEqual([])
})

test('a foreground command shows its output live in its card, and the person can stop it', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Running the test suite.',
      toolCalls: [
        {
          name: 'Shell',
          input: {
            command: 'bash scripts/test.sh',
            description: 'Run the tests'
          }
        }
      ]
    },
    (req) => ({ text: `Result: ${plain(latestToolResults(req)[0]?.content ?? 'none')}` })
  ])
  writeScripts(app.workspace)
  await app.openFolder(page)
  await sendMessage(page, 'Run the tests')
  await expect(page.getByTestId('approval-modal')).toBeVisible()
  await page.getByTestId('approval-allow').click()

  const card = toolCards(page, 'Shell')
  await expect(card).toHaveAttribute('data-state', 'running')
  const live = card.getByTestId('shell-live')
  await expect(live.getByTestId('job-terminal')).toContainText('greets case 3')

  await live.getByTestId('shell-stop').click()
  await expect(card).toHaveAttribute('data-state', 'failed')
  await expect(card.getByTestId('shell-live')).toHaveCount(0)
  await waitForTurnEnd(page)
  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Result: The person stopped the command after'
  )
  const result = app.fakeModel.lastToolResults()[0]?.content ?? ''
  expect(result).toContain('greets case 3')
  expect(result).not.toContain('greets case 400')
})
