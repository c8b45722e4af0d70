// The screens around sessions and their work, photographed in both themes and checked with
// axe-core in both: sessions and their history, the job monitor, checkpoints, the keyboard and a
// long transcript, the meters, and what a restart or a crash leaves. What each screen does is
// proved by the functional spec named above its test.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { stringify } from 'yaml'
import { gate } from '../../testing/fake-model-server'
import type { Reply } from '../../testing/fake-model-server'
import { expect, settingsFor, test } from '../fixtures/app'
import { sendMessage, toolCards, waitForTurnEnd } from '../fixtures/chat'
import { writeFiles } from '../fixtures/workspace'

const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

// sessions.spec.ts, session-history.spec.ts
test('two sessions, the sessions search, a replay, a fork and the list', async ({ page, app }) => {
  app.fakeModel.setScript([
    { text: 'Greetings live in src/greet.ts.' },
    { text: 'The notes are a todo list.' },
    { text: 'Forked answer.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Where is the greeting?')
  await waitForTurnEnd(page)
  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'What are the notes?')
  await waitForTurnEnd(page)
  await app.screenshot(page, 'sessions-01-second')
  const sessions = page.getByTestId('session-item')
  await sessions.filter({ hasText: 'Where is the greeting?' }).click()
  await expect(page.getByTestId('message-user')).toHaveText(['Where is the greeting?'])
  await app.screenshot(page, 'sessions-02-first-again')

  await page.getByTestId('session-search').fill('todo list')
  await expect(page.getByTestId('session-snippet')).toContainText('todo list')
  await app.screenshot(page, 'session-history-02-search')
  await page.getByTestId('session-search').fill('')
  await page.getByTestId('replay-button').click()
  await page.getByTestId('replay-next').click()
  await expect(page.getByTestId('message-assistant')).toContainText('Greetings live')
  await app.screenshot(page, 'session-history-03-replay')
  await page.getByTestId('replay-exit').click()
  await page.getByTestId('message-assistant').hover()
  await expect(page.getByTestId('fork-button').last()).toHaveCSS('opacity', '1')
  await app.screenshot(page, 'session-history-05-fork')
  await page.getByTestId('fork-button').last().click()
  await expect(page.getByTestId('session-title')).toContainText('(fork)')
  await sendMessage(page, 'And in the fork?')
  await waitForTurnEnd(page)
  await expect(sessions).toHaveCount(3)
  await app.screenshot(page, 'session-history-04-list')
})

// jobs.spec.ts
test('the job monitor running, stopped and empty, and a command live in its card', async ({
  page,
  app
}) => {
  writeFiles(app.workspace, {
    'scripts/dev.sh':
      "#!/bin/bash\nprintf '  \\033[1;32mVITE\\033[0m ready\\n  Local: http://localhost:5173/\\n'\n" +
      'i=0\nwhile true; do i=$((i + 1)); printf \'hmr update (x%d)\\n\' "$i"; sleep 0.25; done\n',
    'scripts/test.sh':
      '#!/bin/bash\nfor i in $(seq 1 400); do printf \'\\033[32m✓\\033[0m greets case %d\\n\' "$i"; sleep 0.1; done\n'
  })
  const shell = (command: string, background: boolean, description: string): Reply => ({
    toolCalls: [{ name: 'Shell', input: { command, background, description } }]
  })
  app.fakeModel.setScript([
    shell('bash scripts/dev.sh --port 5173', true, 'Start the dev server'),
    { text: 'Started.' },
    shell('bash scripts/test.sh', false, 'Run the tests'),
    { text: 'Stopped.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Start the dev server')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await toolCards(page, 'Shell').getByTestId('shell-open-job').click()
  const monitor = page.getByTestId('job-monitor')
  await expect(monitor.getByTestId('job-terminal')).toContainText('(x3)')
  await expect(monitor.getByTestId('job-link')).toHaveText('http://localhost:5173/')
  await app.screenshot(page, 'jobs-01-monitor-running')
  await monitor.getByTestId('job-stop').click()
  await expect(monitor.getByTestId('job-outcome')).toHaveText('stopped by the person')
  await app.screenshot(page, 'jobs-02-monitor-stopped')
  await monitor.getByTestId('job-dismiss').click()
  await expect(monitor.getByTestId('job-monitor-empty')).toBeVisible()
  await app.screenshot(page, 'jobs-03-monitor-empty')
  await page.getByTestId('job-monitor-close').click()

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Run the tests')
  await page.getByTestId('approval-allow').click()
  const live = toolCards(page, 'Shell').getByTestId('shell-live')
  await expect(live.getByTestId('job-terminal')).toContainText('greets case 3')
  await app.screenshot(page, 'jobs-04-live-card')
  await live.getByTestId('shell-stop').click()
  await waitForTurnEnd(page)
})

// checkpoints.spec.ts
test('checkpoints: a card’s changes, rewind, the restore undone, a conflict', async ({
  page,
  app
}) => {
  app.fakeModel.setScript([
    {
      text: 'Renaming the greeting.',
      toolCalls: [
        {
          name: 'Shell',
          input: { command: "sed -i 's/Hello/Howdy/' src/greet.ts && echo done > notes/done.md" }
        }
      ]
    },
    { text: 'Changed the greeting and noted it.' },
    { toolCalls: [{ name: 'Shell', input: { command: 'echo "- call mum" >> notes/todo.md' } }] },
    { text: 'Added it.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Make the greeting friendlier')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  const card = toolCards(page, 'Shell')
  await card.getByTestId('call-files-summary').click()
  await card.getByTestId('call-files-file').filter({ hasText: 'src/greet.ts' }).click()
  await expect(card.getByTestId('diff-add')).toContainText('Howdy')
  await app.screenshot(page, 'checkpoints-01-card-changes')
  await page.getByTestId('message-user').hover()
  await page.getByTestId('rewind-button').click()
  const dialog = page.getByTestId('restore-dialog')
  await expect(dialog.getByTestId('restore-files')).toContainText('notes/done.md')
  await app.screenshot(page, 'checkpoints-02-rewind-dialog')
  await dialog.getByTestId('restore-confirm').click()
  await expect(page.getByTestId('composer-input')).toHaveValue('Make the greeting friendlier')
  await app.screenshot(page, 'checkpoints-03-rewound')
  await page.getByTestId('session-item').filter({ hasNotText: '(fork)' }).click()
  await page.getByTestId('restore-divider').getByTestId('restore-undo').click()
  await dialog.getByTestId('restore-confirm').click()
  await expect(page.getByTestId('restore-divider')).toHaveCount(2)
  await app.screenshot(page, 'checkpoints-04-undone')

  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Add a todo')
  await page.getByTestId('approval-allow').click()
  await waitForTurnEnd(page)
  await page.setViewportSize({ width: 900, height: 700 })
  writeFileSync(path.join(app.workspace, 'notes/todo.md'), '- my own list\n')
  await toolCards(page, 'Shell').getByTestId('call-files-revert').click()
  await expect(dialog.getByTestId('restore-conflicts')).toContainText('notes/todo.md')
  await app.screenshot(page, 'checkpoints-05-revert-conflict-narrow')
})

// shortcuts.spec.ts, long-session.spec.ts
test('the palette, find, the shortcuts list, and a long transcript searched and found', async ({
  page,
  app
}) => {
  // Enough steps that the first message is far above the screen, so it is not rendered.
  const steps = Array.from({ length: 25 }, (_, i) => ({
    text: `Step ${i + 1} of the survey.`,
    toolCalls: [{ name: 'Read', input: { path: 'README.md' } }]
  }))
  app.fakeModel.setScript([
    { text: 'An apple a day. Apples are red; **apple** pie is sweet.' },
    ...steps,
    { text: 'Survey done.' },
    { text: 'Unrelated.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Tell me about the apple')
  await waitForTurnEnd(page)
  await page.keyboard.press(`${mod}+k`)
  await expect(page.getByTestId('command-palette-input')).toBeFocused()
  await app.screenshot(page, 'shortcuts-01-palette')
  await page.keyboard.press('Escape')
  await page.getByTestId('composer-input').focus()
  await page.keyboard.press(`${mod}+f`)
  await page.getByTestId('find-input').fill('APPLE')
  await expect(page.getByTestId('find-count')).toHaveText('1 of 4')
  await app.screenshot(page, 'shortcuts-02-find')
  await page.getByTestId('find-input').press('Escape')
  await page.keyboard.press(`${mod}+k`)
  await page.getByTestId('command-palette-input').fill('shortcuts')
  await page.getByTestId('command-palette-input').press('Enter')
  await expect(page.getByTestId('shortcuts-dialog')).toBeVisible()
  await app.screenshot(page, 'shortcuts-03-list')
  await page.keyboard.press('Escape')

  await page.getByTestId('new-session-button').click()
  await page.getByTestId('composer-input').fill('Survey the zebra notes, step by step')
  await page.getByTestId('send-button').click()
  await expect(page.getByTestId('message-assistant').last()).toContainText('Survey done.', {
    timeout: 90_000
  })
  await waitForTurnEnd(page)
  await page.getByTestId('new-session-button').click()
  await sendMessage(page, 'Something else')
  await waitForTurnEnd(page)
  const zebra = page.getByTestId('session-item').filter({ hasText: 'zebra' })
  await zebra.click()
  await expect(page.getByTestId('message-assistant').last()).toBeInViewport()
  await app.screenshot(page, 'long-session-open')
  await page.keyboard.press(`${mod}+f`)
  await page.getByTestId('find-input').fill('zebra')
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1')
  await expect(page.getByTestId('message-user').filter({ hasText: 'zebra' })).toBeInViewport()
  await app.screenshot(page, 'long-session-find')
  await page.getByTestId('find-input').press('Escape')

  await page.getByTestId('session-item').filter({ hasText: 'Something else' }).click()
  await page.getByTestId('session-search').fill('zebra')
  await expect(page.getByTestId('session-snippet')).toContainText('zebra notes')
  await zebra.click()
  await expect(page.getByTestId('message-user').filter({ hasText: 'zebra' })).toBeInViewport()
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1')
  await app.screenshot(page, 'shortcuts-04-search-landed')
})

// meters.spec.ts, session-history.spec.ts: what only a restart, or a crash, shows.
test.describe('across a restart', () => {
  test.use({ ownServer: true, viewport: { width: 1440, height: 900 } })

  test('the meters before and after a restart, and a turn a crash interrupted', async ({
    page,
    app
  }) => {
    const base = settingsFor('fake-openai', app.fakeModel) as { providers: object[] }
    const prices = { 'fake-model': { input: 10, output: 100, cache_read: 1 } }
    const providers = [{ ...base.providers[0], prices }]
    writeFileSync(app.settingsFile, stringify({ ...base, providers }))
    app.fakeModel.setScript([
      { text: 'First answer.', usage: { input: 1200, output: 40, cached: 0 } },
      { text: 'Second answer.', usage: { input: 1300, output: 10, cached: 1200 } },
      { text: 'The list says to buy milk and more. '.repeat(30), holdUntil: gate().opened }
    ])
    await app.openFolder(page)
    await sendMessage(page, 'First question')
    await waitForTurnEnd(page)
    await sendMessage(page, 'Second question')
    await waitForTurnEnd(page)
    await expect(page.getByTestId('meter-cache')).toHaveText('48% cached')
    await app.screenshot(page, 'meters-02-header-and-turns')
    await page.setViewportSize({ width: 1280, height: 800 })
    await expect(page.getByTestId('meter-cost')).toBeVisible()
    await app.screenshot(page, 'meters-02b-header-1280')
    await page.setViewportSize({ width: 1440, height: 900 })

    await app.restart()
    await page.goto(app.url)
    await app.openFolder(page)
    await page.getByTestId('session-item').filter({ hasText: 'First question' }).click()
    await expect(page.getByTestId('meter-context')).toContainText('– / 128k')
    await app.screenshot(page, 'meters-03-after-restart')

    await page.getByTestId('new-session-button').click()
    await sendMessage(page, 'Summarise notes/todo.md')
    await expect(page.getByTestId('message-assistant').last()).toContainText('The list says')
    await app.restart('SIGKILL')
    await page.goto(app.url)
    await app.openFolder(page)
    await page.getByTestId('session-item').filter({ hasText: 'Summarise' }).click()
    await expect(page.getByTestId('turn-interrupted')).toBeVisible()
    await app.screenshot(page, 'session-history-01-interrupted')
  })
})
