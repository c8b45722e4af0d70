// Sub-agents and parallel branches in the window: a child's nested transcript inside its card,
// its approvals in the normal modal labelled with its name, and branches side by side.
import { writeFileSync } from 'node:fs'
import { stringify } from 'yaml'
import type { NormalizedRequest, Reply } from '../testing/fake-model-server'
import { latestToolResults } from '../testing/fake-model-server'
import { expect, settingsFor, test, type App } from './fixtures/app'
import { readWorkspaceFile, sendMessage, toolCards, waitForTurnEnd } from './fixtures/chat'

/** Settings written before the folder opens: the first turn reads them, profiles and all. */
function withSettings(app: App, extra: Record<string, unknown>): void {
  const base = settingsFor('fake-openai', app.fakeModel) as Record<string, unknown>
  writeFileSync(app.settingsFile, stringify({ ...base, ...extra }))
}

test('a sub-agent works in a nested transcript and asks for approval by name', async ({
  page,
  app
}) => {
  withSettings(app, {
    subagents: [
      { name: 'explorer', description: 'Looks through files.', tools: ['Read', 'ListDir'] },
      { name: 'scribe', description: 'Writes notes.', tools: ['Write'] }
    ]
  })
  app.fakeModel.setScript([
    {
      text: 'Sending the explorer.',
      toolCalls: [{ name: 'Agent_explorer', input: { task: 'What does src/greet.ts export?' } }]
    },
    { toolCalls: [{ name: 'Read', input: { path: 'src/greet.ts' } }] },
    { text: 'It exports one function, greet(name).' },
    (req) => ({
      text: 'Now the scribe writes it down.',
      toolCalls: [
        {
          name: 'Agent_scribe',
          input: { task: `Write notes/found.md saying: ${latestToolResults(req)[0]?.content}` }
        }
      ]
    }),
    {
      toolCalls: [{ name: 'Write', input: { path: 'notes/found.md', content: 'greet(name)\n' } }]
    },
    { text: 'Wrote notes/found.md.' },
    { text: 'Both sub-agents are done.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Find out what greet.ts exports and note it')

  // The scribe writes, so its call is approved first; then its Write, asked in its name.
  const modal = page.getByTestId('approval-modal')
  await expect(modal).toBeVisible()
  await expect(modal).toContainText('Agent_scribe')
  await page.getByTestId('approval-allow').click()
  await expect(modal).toContainText('sub-agent "scribe"')
  await expect(modal).toContainText('notes/found.md')
  await page.getByTestId('approval-allow').click()

  await expect(page.getByTestId('message-assistant').last()).toContainText(
    'Both sub-agents are done.'
  )
  await waitForTurnEnd(page)
  const explorer = toolCards(page, 'Agent_explorer')
  await expect(explorer).toHaveAttribute('data-state', 'done')
  const nested = explorer.getByTestId('child-transcript')
  await expect(nested.getByTestId('child-call')).toHaveAttribute('data-tool', 'Read')
  await expect(nested.getByTestId('child-call')).toHaveAttribute('data-state', 'done')
  await expect(nested.getByTestId('child-text')).toContainText('greet(name)')
  await expect(toolCards(page, 'Agent_scribe').getByTestId('child-call')).toHaveAttribute(
    'data-tool',
    'Write'
  )
  expect(readWorkspaceFile(app.workspace, 'notes/found.md')).toBe('greet(name)\n')

  // The nested transcript folds away and comes back.
  await nested.getByTestId('child-transcript-toggle').click()
  await expect(nested.getByTestId('child-call')).toHaveCount(0)
  await nested.getByTestId('child-transcript-toggle').click()
  await expect(nested.getByTestId('child-call')).toHaveCount(1)
})

const taskOf = (req: NormalizedRequest): string =>
  JSON.stringify(req.messages.find((m) => m.role === 'user') ?? '')

/** Each branch reads the README, rewrites its title in its own language and answers. */
function branchStep(req: NormalizedRequest): Reply {
  const word = /say (\w+)/.exec(taskOf(req))?.[1] ?? 'nothing'
  const replies = req.messages.filter((m) => m.role === 'assistant').length
  if (replies === 0) return { toolCalls: [{ name: 'Read', input: { path: 'README.md' } }] }
  if (replies === 1) {
    const readme = `# ${word} project\n\nA tiny folder for the Mecatl end-to-end tests.\n`
    return { toolCalls: [{ name: 'Write', input: { path: 'README.md', content: readme } }] }
  }
  return { text: `The title now says ${word}.` }
}

test('a parallel run shows its branches side by side and a branch can be taken', async ({
  page,
  app
}) => {
  withSettings(app, { permissions: { mode: 'allow' } })
  app.fakeModel.setScript([
    {
      text: 'Trying two titles at once.',
      toolCalls: [
        {
          name: 'Parallel',
          input: {
            tasks: ['say bonjour in the title', 'say hola in the title'],
            tools: ['Read', 'Write'],
            mode: 'select'
          }
        }
      ]
    },
    ...Array.from({ length: 6 }, () => branchStep),
    { text: 'Both branches are ready; pick the one you like.' }
  ])
  await app.openFolder(page)
  await sendMessage(page, 'Try a French and a Spanish title')
  await waitForTurnEnd(page)

  const card = toolCards(page, 'Parallel')
  const branches = card.getByTestId('parallel-branch')
  await expect(branches).toHaveCount(2)
  await expect(branches.nth(0)).toContainText('bonjour project')
  await expect(branches.nth(1)).toContainText('hola project')
  await expect(branches.nth(0).getByTestId('diff-add')).toHaveCount(1)
  // Nothing is applied until a branch is taken.
  expect(readWorkspaceFile(app.workspace, 'README.md')).toContain('# Sample project')

  await branches.nth(1).getByTestId('take-branch').click()
  await expect(card.getByTestId('parallel-status')).toContainText("Branch 1's changes were applied")
  await expect(card.getByTestId('take-branch')).toHaveCount(0)
  expect(readWorkspaceFile(app.workspace, 'README.md')).toContain('# hola project')
})
