import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { loadTimeCycles } from '../testing/import-cycles'
import { usesBeforeLoad } from '../testing/load-order'
import { findViolations, sourceFilesUnder, why, type SourceText } from '../testing/layer-rules'

// The layer arrows of DESIGN.md (Layers), checked on every .ts/.tsx file under src, tests
// included, and on testing/; the arrows are layers.mjs's (the tiers of src/main among them),
// applied by testing/layer-rules.ts. eslint.config.mjs enforces the same arrows while editing,
// and the last test here proves it gives the same verdicts.

const repoRoot = path.resolve(import.meta.dirname, '..')

describe('layering', () => {
  it('no file under src crosses a layer arrow', () => {
    const files = [...sourceFilesUnder(repoRoot, 'src'), ...sourceFilesUnder(repoRoot, 'testing')]
    // Guard against a walk that silently finds nothing (or the wrong folder).
    const paths = files.map((file) => file.path)
    expect(paths).toContain('src/shared/domain.ts')
    expect(paths).toContain('src/main/index.ts')
    expect(paths).toContain('src/renderer/src/main.tsx')
    expect(paths).toContain('src/layering.test.ts')
    expect(paths).toContain('testing/core-harness.ts')
    expect(findViolations(files)).toEqual([])
    // It parses every source file: about 5 s of CPU, which a machine busy with other work
    // stretches past the default 20 s.
  }, 60_000)

  it('sees every import form and flags every arrow, so it cannot pass vacuously', () => {
    const fake: SourceText[] = [
      {
        path: 'src/shared/bad.ts',
        text: [
          '/// <reference types="node" />',
          "import { z } from 'zod'",
          "import { x } from './domain'",
          "import { readFile } from 'node:fs/promises'",
          "export { y } from '../main/core'",
          "import type { Z } from '../renderer/src/main'",
          "import React from 'react'",
          'export const v = [z, x, readFile, React]'
        ].join('\n')
      },
      {
        path: 'src/renderer/src/features/chat/bad.tsx',
        text: [
          "import { calls } from '../../../../shared/contract'",
          "import { useState } from 'react'",
          "import { helper } from '../../lib/format'",
          "import fs = require('fs')",
          "const p = require('path')",
          "export const load = () => import('../../../../main/core')",
          "export type E = typeof import('electron')",
          "export * from '../../../../preload/index'",
          'export const v = <div>{String([calls, useState, helper, fs, p])}</div>'
        ].join('\n')
      },
      {
        path: 'src/main/agent/bad.ts',
        text: [
          'import { app } from ' + "'electron'",
          "import { ipcMain } from 'electron/main'",
          "import { z } from 'zod'",
          "import { readFile } from 'node:fs/promises'",
          "import { Catalog } from '../tools/catalog'",
          "import { x } from '../../renderer/src/lib/format'",
          "// ipcRenderer in a comment is fine, and so is 'ipcMain' in a string",
          'export const v = [app, ipcMain, z, readFile, Catalog, x]'
        ].join('\n')
      },
      {
        path: 'src/main/electron/window.ts',
        text:
          'import * as electron from ' + "'electron'\nexport const send = electron.ipcMain.emit\n"
      },
      {
        path: 'src/main/electron/ipc-transport.ts',
        text: 'import { app, ipcMain } from ' + "'electron'\nexport const v = [app, ipcMain]\n"
      },
      {
        path: 'src/main/index.ts',
        text:
          'import { app } from ' +
          "'electron'\nimport { core } from './core'\nexport const v = [app, core]\n"
      },
      {
        path: 'src/preload/index.ts',
        text: [
          'import { contextBridge, ipcRenderer } from ' + "'electron'",
          "import { isCallName } from '../shared/contract/names'",
          "import { calls } from '../shared/contract'",
          "import { z } from 'zod'",
          "import { x } from '../shared/domain'",
          'export const v = [contextBridge, ipcRenderer, isCallName, calls, z, x]'
        ].join('\n')
      }
    ]
    const { shared, renderer, electronOnly, noUi, preload } = why
    const rawIpc =
      'uses raw IPC (only src/main/electron/ipc-transport.ts and src/preload/index.ts may touch ipcMain/ipcRenderer)'
    expect(findViolations(fake).sort()).toEqual(
      [
        `src/shared/bad.ts:1: imports node (${shared})`,
        `src/shared/bad.ts:4: imports node:fs/promises (${shared})`,
        `src/shared/bad.ts:5: imports src/main/core (${shared})`,
        `src/shared/bad.ts:6: imports src/renderer/src/main (${shared})`,
        `src/shared/bad.ts:7: imports react (${shared})`,
        `src/renderer/src/features/chat/bad.tsx:4: imports fs (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:5: imports path (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:6: imports src/main/core (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:7: imports electron (${renderer})`,
        `src/renderer/src/features/chat/bad.tsx:8: imports src/preload/index (${renderer})`,
        `src/main/agent/bad.ts:1: imports electron (${electronOnly})`,
        `src/main/agent/bad.ts:2: imports electron/main (${electronOnly})`,
        `src/main/agent/bad.ts:6: imports src/renderer/src/lib/format (${noUi})`,
        `src/main/agent/bad.ts:2: ${rawIpc}`,
        `src/main/agent/bad.ts:8: ${rawIpc}`,
        `src/main/electron/window.ts:2: ${rawIpc}`,
        `src/preload/index.ts:4: imports zod (${preload})`,
        `src/preload/index.ts:5: imports src/shared/domain (${preload})`
      ].sort()
    )
  })

  it('catches each never-arrow of the core, the hosts, the test code and rpc', () => {
    expect(findViolations(neverArrows).sort()).toEqual(neverArrowVerdicts.sort())
  })

  it('no module of the main process or src/shared imports itself back as it loads', () => {
    const production = [
      ...sourceFilesUnder(repoRoot, 'src/main'),
      ...sourceFilesUnder(repoRoot, 'src/shared')
    ].filter((file) => !/\.test\.ts$/.test(file.path))
    expect(production.length).toBeGreaterThan(300)
    expect(loadTimeCycles(production)).toEqual([])
  })

  it('finds a cycle through values and re-exports, not through types or import()', () => {
    const files: SourceText[] = [
      {
        path: 'src/main/a/one.ts',
        text: "import { two } from '../b/two'\nexport const one = two\n"
      },
      { path: 'src/main/b/two.ts', text: "export { three as two } from './three'\n" },
      {
        path: 'src/main/b/three.ts',
        text: "import { one } from '../a/one'\nexport const three = 3\n"
      },
      {
        path: 'src/main/c/four.ts',
        text: "import type { five } from './five'\nexport const four: typeof five = 4\n"
      },
      {
        path: 'src/main/c/five.ts',
        text: [
          "import { type four } from './four'",
          "export const later = () => import('./four')",
          'export const five: typeof four = 5'
        ].join('\n')
      }
    ]
    expect(loadTimeCycles(files)).toEqual([
      'src/main/a/one.ts, src/main/b/three.ts, src/main/b/two.ts'
    ])
  })

  it('no module of the window imports itself back as it loads', () => {
    // The features sit on tiers (rendererTiers in layers.mjs) and import down them only.
    const renderer = sourceFilesUnder(repoRoot, 'src/renderer').filter(
      (file) => !/\.test\.tsx?$/.test(file.path)
    )
    expect(renderer.length).toBeGreaterThan(200)
    expect(loadTimeCycles(renderer)).toEqual([])
  })

  it('the window reads nothing as it loads that has not loaded yet', () => {
    const renderer = sourceFilesUnder(repoRoot, 'src/renderer').filter(
      (file) => !/\.test\.tsx?$/.test(file.path)
    )
    expect(renderer.length).toBeGreaterThan(200)
    expect(usesBeforeLoad(renderer, 'src/renderer/src/main.tsx')).toEqual([])
  })

  it('finds a module read before it has loaded, not one read when called', () => {
    const root = 'src/renderer/src'
    const files: SourceText[] = [
      {
        path: `${root}/main.tsx`,
        text: "import { ChatView } from './features/chat'\nChatView()\n"
      },
      {
        path: `${root}/features/chat/index.ts`,
        text: "export { ChatView } from './chat-view'\nexport { useChat } from './chat-store'\n"
      },
      {
        path: `${root}/features/chat/chat-view.tsx`,
        text: "import { SessionList } from '../sessions'\nexport const ChatView = () => SessionList\n"
      },
      {
        path: `${root}/features/chat/chat-store.ts`,
        text: 'export const useChat = { dispatch: 1 }\n'
      },
      {
        path: `${root}/features/sessions/index.ts`,
        text: "export { SessionList } from './session-list'\n"
      },
      {
        path: `${root}/features/sessions/session-list.ts`,
        text: [
          "import { useChat } from '../chat'",
          'const dispatch = useChat.dispatch',
          'export const SessionList = (): number => dispatch',
          'export const later = (): unknown => useChat'
        ].join('\n')
      }
    ]
    expect(usesBeforeLoad(files, `${root}/main.tsx`)).toEqual([
      `${root}/features/sessions/session-list.ts:2: reads useChat of ${root}/features/chat/index.ts before that has loaded`
    ])
  })

  it('lint gives the same verdicts on the same files', async () => {
    const eslint = new ESLint({ cwd: repoRoot })
    const found: string[] = []
    for (const file of neverArrows) {
      const [result] = await eslint.lintText(file.text, {
        filePath: path.join(repoRoot, file.path)
      })
      for (const message of result?.messages ?? []) {
        if (message.ruleId === 'layers/relative-imports') {
          found.push(`${file.path}:${message.line}: ${message.message}`)
        }
      }
    }
    // Lint does not see the whole tree at once: the stray helper is this test's alone.
    const perImport = neverArrowVerdicts.filter((verdict) => !verdict.includes(why.strayHelper))
    expect(found.sort()).toEqual(perImport.sort())
  })
})

/** One file per arrow kind, each crossing it and also taking the allowed road beside it. */
const neverArrows: SourceText[] = [
  {
    // The core reaches into each host, statically, by re-export and by import().
    path: 'src/main/agent/bad-host.ts',
    text: [
      "import { parseCliArgs } from '../cli/args'",
      "export { startBrowserServer } from '../server/browser-server'",
      "import { Windows } from '../electron/windows'",
      "import { main } from '../index'",
      "import { Catalog } from '../tools/catalog'",
      "import { EventHub } from '../events/event-hub'",
      "export const later = () => import('../cli/context')",
      'export const v = [parseCliArgs, Windows, main, Catalog, EventHub]'
    ].join('\n')
  },
  {
    // Tests are held to the core's arrow too; testing code and the rpc transports they may use.
    path: 'src/main/tools/web/bad.test.ts',
    text: [
      "import { parseCliArgs } from '../../cli/args'",
      "import { createHarness } from '../../../../../testing/core-harness'",
      "import { createMemoryPair } from '../../rpc/memory-transport'",
      "import { test } from '../../../../e2e/fixtures/app'",
      'export const v = [parseCliArgs, createHarness, createMemoryPair, test]'
    ].join('\n')
  },
  {
    path: 'src/main/electron/bad.ts',
    text: [
      "import { parseCliArgs } from '../cli/args'",
      "import { serveStatic } from '../server/static-files'",
      "import { createCore } from '../core'",
      "import { main } from '../index'",
      "import { openConnection } from '../rpc/connection'",
      'export const v = [parseCliArgs, serveStatic, createCore, main, openConnection]'
    ].join('\n')
  },
  {
    path: 'src/main/index.ts',
    text: [
      "import { Windows } from './electron/windows'",
      "import { usage } from './cli/args'",
      'export const v = [Windows, usage]'
    ].join('\n')
  },
  {
    path: 'src/main/server/bad.ts',
    text: [
      "import { cliCore } from '../cli/context'",
      "import { readSecret } from '../electron/secrets'",
      "import { openConnection } from '../rpc/connection'",
      'export const v = [cliCore, readSecret, openConnection]'
    ].join('\n')
  },
  {
    // Only serve.ts may start the browser server, and only through browser-server.ts.
    path: 'src/main/cli/commands/bad.ts',
    text: [
      "import { startBrowserServer } from '../../server/browser-server'",
      "import { Windows } from '../../electron/windows'",
      "import { createMemoryPair } from '../../rpc/memory-transport'",
      'export const v = [startBrowserServer, Windows, createMemoryPair]'
    ].join('\n')
  },
  {
    path: 'src/main/cli/commands/serve.ts',
    text: [
      "import { startBrowserServer } from '../../server/browser-server'",
      "import { serveStatic } from '../../server/static-files'",
      'export const v = [startBrowserServer, serveStatic]'
    ].join('\n')
  },
  {
    // Production code takes nothing from the test code.
    path: 'src/main/tools/fs/bad.ts',
    text: [
      "import { createTestWorkspace } from '../../../../testing/fs-test-context'",
      "import { measure } from '../../../../bench/measure'",
      "import { startFakeModelServer } from '../../../../e2e/fixtures/fake-model-server'",
      "import { PathJail } from '../../workspace/path-jail'",
      'export const v = [createTestWorkspace, measure, startFakeModelServer, PathJail]'
    ].join('\n')
  },
  {
    path: 'testing/bad.ts',
    text: [
      "import { sendMessage } from '../e2e/fixtures/chat'",
      "import { parseCliArgs } from '../src/main/cli/args'",
      "import { createMemoryPair } from '../src/main/rpc/memory-transport'",
      "import { helper } from '../src/main/tools/web/helper'",
      'export const v = [sendMessage, parseCliArgs, createMemoryPair, helper]'
    ].join('\n')
  },
  {
    // Imported by test code only (bad.test.ts and testing/bad.ts): it belongs in testing/.
    path: 'src/main/tools/web/helper.ts',
    text: "export const helper = 'only tests use me'\n"
  },
  {
    path: 'src/main/tools/web/uses-helper.test.ts',
    text: "import { helper } from './helper'\nexport const v = helper\n"
  },
  {
    // A domain file reaches up into rpc/; the contract's handler types and the hub are its road.
    path: 'src/main/gate/bad.ts',
    text: [
      "import type { Handlers } from '../rpc/router'",
      "import { EventHub } from '../rpc/event-hub'",
      "import type { CallContext } from '../../shared/contract/handlers'",
      "import { EventHub as Hub } from '../events/event-hub'",
      'export type V = [Handlers, EventHub, CallContext, Hub]'
    ].join('\n')
  },
  {
    path: 'src/main/core.ts',
    text: [
      "import { createRouter } from './rpc/router'",
      "import { parseCliArgs } from './cli/args'",
      'export const v = [createRouter, parseCliArgs]'
    ].join('\n')
  },
  {
    // rpc/ reaches into a domain folder; shared, events, its own files and packages are fine.
    path: 'src/main/rpc/bad.ts',
    text: [
      "import { SessionService } from '../agent/session-service'",
      "import { EventHub } from '../events/event-hub'",
      "import { calls } from '../../shared/contract'",
      "import { createRouter } from './router'",
      "import { WebSocket } from 'ws'",
      'export const v = [SessionService, EventHub, calls, createRouter, WebSocket]'
    ].join('\n')
  },
  {
    path: 'src/main/rpc/bad.test.ts',
    text: "import { createCore } from '../core'\nexport const v = createCore\n"
  },
  {
    // A slice's answer calls another's; the services it takes are its road.
    path: 'src/main/api/bad-call.ts',
    text: [
      "import { toolsApi } from './tools'",
      "import type { Services } from '../core'",
      "import { checkFolder } from '../workspace/check-folder'",
      'export const v = [toolsApi, checkFolder] as unknown as Services'
    ].join('\n')
  },
  {
    // providers/ reaches up the tiers of src/main, into agent/ and tools/; its own tier, the
    // tiers below and src/shared are its road.
    path: 'src/main/providers/bad-tier.ts',
    text: [
      "import { describeFailure } from '../agent/turn-loop'",
      "import type { Catalog } from '../tools/catalog'",
      "export { McpManager } from '../mcp/mcp-manager'",
      "export const later = () => import('../gate/gate')",
      "import { JobManager } from '../jobs/job-manager'",
      "import { writeFileAtomic } from '../workspace/atomic-write'",
      "import { EventHub } from '../events/event-hub'",
      "import { calls } from '../../shared/contract'",
      "import { unplaced } from '../unplaced/thing'",
      'export const v = [describeFailure, JobManager, writeFileAtomic, EventHub, calls, unplaced]',
      'export type V = Catalog'
    ].join('\n')
  },
  {
    // A test sits beside what it tests and may drive a whole core from any tier.
    path: 'src/main/providers/bad-tier.test.ts',
    text: "import { createCore } from '../core'\nexport const v = createCore\n"
  },
  {
    // A folder of src/main that is in no tier: placed in layers.mjs before it is used.
    path: 'src/main/unplaced/thing.ts',
    text: "import { EventHub } from '../events/event-hub'\nexport const unplaced = EventHub\n"
  },
  {
    // A renderer feature reaches into another's files, statically, by re-export and by import();
    // the other's face (its folder or index), its own files and lib/ are its road.
    path: 'src/renderer/src/features/chat/bad-reach.tsx',
    text: [
      "import { useSessions } from '../sessions/sessions-store'",
      "export { ReplayBar } from '../sessions/replay-bar'",
      "export const later = () => import('../jobs/job-monitor')",
      "import { createSession } from '../sessions'",
      "import { JobMonitor } from '../jobs/index'",
      "import { sendMessage } from './chat-store'",
      "import { formatBytes } from '../../lib/format'",
      "import '../approvals/approvals.css'",
      "import './chat.css'",
      'export const v = [useSessions, createSession, JobMonitor, sendMessage, formatBytes]'
    ].join('\n')
  },
  {
    // The shell composes the features through their faces too.
    path: 'src/renderer/src/shell/bad-reach.tsx',
    text: [
      "import { ChatView } from '../features/chat/chat-view'",
      "import { ChatView as View, loadModels } from '../features/chat'",
      "import { useLayout } from '../app/layout-store'",
      'export const v = [ChatView, View, loadModels, useLayout]'
    ].join('\n')
  },
  {
    // A test beside its feature may set another feature's state up to exercise its own.
    path: 'src/renderer/src/features/chat/bad-reach.test.ts',
    text: "import { useSessions } from '../sessions/sessions-store'\nexport const v = useSessions\n"
  },
  {
    // A feature reaches up its tiers, into chat and a feature on its own tier, and into the shell
    // above them all; features below it, type imports of them, its own files and app/ (the
    // window's own state) are its road.
    path: 'src/renderer/src/features/sessions/bad-tier.tsx',
    text: [
      "import { ChatView } from '../chat'",
      "import { ApprovalDot } from '../notifications'",
      "export { SettingsScreen } from '../settings-screen'",
      "import { FolderTrustChip } from '../trust'",
      "import { SessionTotalsLine } from '../meters'",
      "import { useSettings } from '../settings'",
      "import { openSettings } from '../../shell/app-store'",
      "import { createSession } from './sessions-store'",
      'export const v = [ChatView, ApprovalDot, FolderTrustChip, SessionTotalsLine, useSettings]',
      "import { closeSettings } from '../../app/app-store'",
      'export const w = [openSettings, createSession, closeSettings]'
    ].join('\n')
  },
  {
    path: 'src/renderer/src/features/meters/bad-tier.tsx',
    text: "import { useWorkspace } from '../web'\nexport const v = useWorkspace\n"
  },
  {
    // A test beside its feature may reach up: it runs nothing in the window.
    path: 'src/renderer/src/features/sessions/bad-tier.test.ts',
    text: "import { ChatView } from '../chat'\nexport const v = ChatView\n"
  },
  {
    // lib/, ui/ and the bridge sit below the features and the shell: not even a face.
    path: 'src/renderer/src/ui/bad-reach.tsx',
    text: [
      "import { createSession } from '../features/sessions'",
      "import { useApp } from '../shell/app-store'",
      "import { formatBytes } from '../lib/format'",
      'export const v = [createSession, useApp, formatBytes]'
    ].join('\n')
  }
]

const neverArrowVerdicts: string[] = (() => {
  const { coreToHost, hostToHost, testCode, noE2e, domainToRpc, rpcDown, strayHelper, tiers } = why
  const { featureFace, featureStyles, featureTiers, rendererBase, shellOnTop, apiSlices } = why
  const chat = 'src/renderer/src/features/chat/bad-reach.tsx'
  const sessions = 'src/renderer/src/features/sessions/bad-tier.tsx'
  return [
    `${sessions}:1: imports src/renderer/src/features/chat (${featureTiers})`,
    `${sessions}:2: imports src/renderer/src/features/notifications (${featureTiers})`,
    `${sessions}:3: imports src/renderer/src/features/settings-screen (${featureTiers})`,
    `${sessions}:7: imports src/renderer/src/shell/app-store (${shellOnTop})`,
    `src/renderer/src/features/meters/bad-tier.tsx:1: imports src/renderer/src/features/web (${featureTiers})`,
    `${chat}:1: imports src/renderer/src/features/sessions/sessions-store (${featureFace})`,
    `${chat}:2: imports src/renderer/src/features/sessions/replay-bar (${featureFace})`,
    `${chat}:3: imports src/renderer/src/features/jobs/job-monitor (${featureFace})`,
    `${chat}:8: imports src/renderer/src/features/approvals/approvals.css (${featureStyles})`,
    `src/renderer/src/shell/bad-reach.tsx:1: imports src/renderer/src/features/chat/chat-view (${featureFace})`,
    `src/renderer/src/ui/bad-reach.tsx:1: imports src/renderer/src/features/sessions (${rendererBase})`,
    `src/renderer/src/ui/bad-reach.tsx:2: imports src/renderer/src/shell/app-store (${rendererBase})`,
    `src/renderer/src/ui/bad-reach.tsx:2: imports src/renderer/src/shell/app-store (${shellOnTop})`,
    `src/main/api/bad-call.ts:1: imports src/main/api/tools (${apiSlices})`,
    `src/main/providers/bad-tier.ts:1: imports src/main/agent/turn-loop (${tiers})`,
    `src/main/providers/bad-tier.ts:2: imports src/main/tools/catalog (${tiers})`,
    `src/main/providers/bad-tier.ts:3: imports src/main/mcp/mcp-manager (${tiers})`,
    `src/main/providers/bad-tier.ts:4: imports src/main/gate/gate (${tiers})`,
    `src/main/providers/bad-tier.ts:9: imports src/main/unplaced/thing (${tiers})`,
    `src/main/unplaced/thing.ts:1: is in no tier (${tiers})`,
    `src/main/agent/bad-host.ts:1: imports src/main/cli/args (${coreToHost})`,
    `src/main/agent/bad-host.ts:2: imports src/main/server/browser-server (${coreToHost})`,
    `src/main/agent/bad-host.ts:3: imports src/main/electron/windows (${coreToHost})`,
    `src/main/agent/bad-host.ts:4: imports src/main/index (${coreToHost})`,
    `src/main/agent/bad-host.ts:7: imports src/main/cli/context (${coreToHost})`,
    `src/main/tools/web/bad.test.ts:1: imports src/main/cli/args (${coreToHost})`,
    `src/main/tools/web/bad.test.ts:4: imports e2e/fixtures/app (${noE2e})`,
    `src/main/electron/bad.ts:1: imports src/main/cli/args (${hostToHost})`,
    `src/main/electron/bad.ts:2: imports src/main/server/static-files (${hostToHost})`,
    `src/main/index.ts:2: imports src/main/cli/args (${hostToHost})`,
    `src/main/server/bad.ts:1: imports src/main/cli/context (${hostToHost})`,
    `src/main/server/bad.ts:2: imports src/main/electron/secrets (${hostToHost})`,
    `src/main/cli/commands/bad.ts:1: imports src/main/server/browser-server (${hostToHost})`,
    `src/main/cli/commands/bad.ts:2: imports src/main/electron/windows (${hostToHost})`,
    `src/main/cli/commands/serve.ts:2: imports src/main/server/static-files (${hostToHost})`,
    `src/main/tools/fs/bad.ts:1: imports testing/fs-test-context (${testCode})`,
    `src/main/tools/fs/bad.ts:2: imports bench/measure (${testCode})`,
    `src/main/tools/fs/bad.ts:3: imports e2e/fixtures/fake-model-server (${noE2e})`,
    `testing/bad.ts:1: imports e2e/fixtures/chat (${noE2e})`,
    `src/main/tools/web/helper.ts: only test code imports it (${strayHelper})`,
    `src/main/gate/bad.ts:1: imports src/main/rpc/router (${domainToRpc})`,
    `src/main/gate/bad.ts:2: imports src/main/rpc/event-hub (${domainToRpc})`,
    `src/main/core.ts:2: imports src/main/cli/args (${coreToHost})`,
    `src/main/rpc/bad.ts:1: imports src/main/agent/session-service (${rpcDown})`
  ]
})()
