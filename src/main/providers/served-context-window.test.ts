import { readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import YAML from 'yaml'
import { settingsSchema } from '../../shared/settings'
import { startCoreHarness } from '../../../testing/core-harness'
import { compactThreshold, outputBudgetBytes } from './context-window'
import { isLocalServer, probeServedWindow, servedWindowFor } from './served-context-window'

interface FakeOllama {
  /** `http://127.0.0.1:<port>/v1`, as the provider's base URL is written. */
  baseUrl: string
  /** The bodies `/api/show` was asked with. */
  shown: unknown[]
}

/**
 * Ollama's own endpoints as it answers them (`/api/show`, `/api/ps`); any other path goes to
 * `upstream` (the fake model server), as Ollama serves `/v1` beside them.
 */
async function startFakeOllama(
  show: (model: string) => unknown,
  options: { ps?: unknown; upstream?: string } = {}
): Promise<FakeOllama> {
  const shown: unknown[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.url === '/api/show' && req.method === 'POST') {
        const asked = JSON.parse(body.toString()) as { model: string }
        shown.push(asked)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(show(asked.model)))
      } else if (req.url === '/api/ps') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(options.ps ?? { models: [] }))
      } else if (options.upstream) {
        const forward = http.request(
          `${options.upstream}${req.url ?? ''}`,
          { method: req.method, headers: req.headers },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers)
            up.pipe(res)
          }
        )
        forward.end(body)
      } else {
        res.writeHead(404).end('404 page not found')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as AddressInfo
  return { baseUrl: `http://127.0.0.1:${port}/v1`, shown }
}

/** Answers each path with its JSON (a string as it is), anything else with 404; its `/v1` URL. */
async function startJsonServer(routes: Record<string, unknown>): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume()
    const body = routes[req.url ?? '']
    if (body === undefined) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

/** Where the fake model server's `/v1` lives, for the fake Ollama to forward to. */
const upstreamOf = (openaiBaseUrl: string): string => openaiBaseUrl.replace(/\/v1$/, '')

const llamaShow = (numCtx?: number): unknown => ({
  modelfile: '# Modelfile',
  parameters: [numCtx ? `num_ctx                        ${numCtx}` : '', 'stop "<|eot_id|>"'].join(
    '\n'
  ),
  details: { family: 'llama' },
  model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 }
})

describe('the context window a local server serves', () => {
  it("is read from Ollama's /api/show: num_ctx, else Ollama's default", async () => {
    const withCtx = await startFakeOllama(() => llamaShow(16384))
    expect(await probeServedWindow(withCtx.baseUrl, 'llama3.1:8b')).toMatchObject({
      tokens: 16384,
      server: 'ollama'
    })
    expect(withCtx.shown).toEqual([{ model: 'llama3.1:8b' }])
    const plain = await startFakeOllama(() => llamaShow())
    const found = await probeServedWindow(plain.baseUrl, 'llama3.1:8b')
    expect(found?.tokens).toBe(4096)
    expect(found?.raise).toContain('num_ctx')
  })

  it('prefers the window a loaded model runs with (/api/ps)', async () => {
    const ollama = await startFakeOllama(() => llamaShow(), {
      ps: { models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b', context_length: 32768 }] }
    })
    expect((await probeServedWindow(ollama.baseUrl, 'llama3.1:8b'))?.tokens).toBe(32768)
    const latest = await startFakeOllama(() => llamaShow(), {
      ps: { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 20000 }] }
    })
    expect((await probeServedWindow(latest.baseUrl, 'llama3.2'))?.tokens).toBe(20000)
    expect((await probeServedWindow(latest.baseUrl, 'llama3.2:1b'))?.tokens).toBe(4096)
  })

  it("is read from LM Studio's and llama.cpp's model endpoints", async () => {
    const lmStudio = await startJsonServer({
      '/api/v0/models/qwen%2Fqwen3-8b': {
        id: 'qwen/qwen3-8b',
        state: 'loaded',
        max_context_length: 40960,
        loaded_context_length: 8192
      }
    })
    expect(await probeServedWindow(lmStudio, 'qwen/qwen3-8b')).toMatchObject({
      tokens: 8192,
      server: 'lm-studio'
    })
    const llamaCpp = await startJsonServer({
      '/props': { default_generation_settings: { n_ctx: 6144 }, total_slots: 1 }
    })
    expect(await probeServedWindow(llamaCpp, 'any')).toMatchObject({
      tokens: 6144,
      server: 'llama.cpp'
    })
  })

  it('is none when the answers are not what these servers send', async () => {
    const odd = await startJsonServer({
      '/api/show': '<html>not json</html>',
      '/api/v0/models/m': { max_context_length: -5 },
      '/props': { default_generation_settings: { n_ctx: '4096' } }
    })
    expect(await probeServedWindow(odd, 'm')).toBeNull()
    expect(await probeServedWindow('http://127.0.0.1:9/v1', 'm')).toBeNull()
  })

  it('sets the budget and the compaction threshold, under the settings', async () => {
    const ollama = await startFakeOllama(() => llamaShow(8192))
    const settings = settingsSchema.parse({
      providers: [{ id: 'local', kind: 'openai-compatible', base_url: ollama.baseUrl }]
    })
    const served = await servedWindowFor(settings.providers[0], 'qwen2.5-coder:7b')
    const ref = { providerId: 'local', model: 'qwen2.5-coder:7b' }
    expect(compactThreshold(ref, settings, served?.tokens)).toBe(6144)
    expect(outputBudgetBytes(ref, settings, served?.tokens)).toBe(3072)
    // Without the server's word the table's 32k would be used: four times what Ollama serves.
    expect(compactThreshold(ref, settings)).toBe(24576)
  })

  it('is asked once of a server that answers, and again of one not running yet', async () => {
    const ollama = await startFakeOllama(() => llamaShow(8192))
    const provider = {
      id: 'o',
      kind: 'openai-compatible' as const,
      base_url: ollama.baseUrl,
      models: []
    }
    expect((await servedWindowFor(provider, 'm'))?.tokens).toBe(8192)
    expect((await servedWindowFor(provider, 'm'))?.tokens).toBe(8192)
    expect(ollama.shown).toHaveLength(1)

    const later = http.createServer((req, res) => {
      req.resume()
      if (req.url !== '/api/show') return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(llamaShow(2048)))
    })
    await new Promise<void>((resolve) => later.listen(0, '127.0.0.1', resolve))
    const { port } = later.address() as AddressInfo
    await new Promise<void>((resolve) => later.close(() => resolve()))
    const down = { ...provider, base_url: `http://127.0.0.1:${port}/v1` }
    expect(await servedWindowFor(down, 'm')).toBeNull()
    await new Promise<void>((resolve) => later.listen(port, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => later.close(() => resolve())))
    expect((await servedWindowFor(down, 'm'))?.tokens).toBe(2048)
  })

  it('is asked of local servers only', () => {
    expect(isLocalServer('http://127.0.0.1:11434/v1')).toBe(true)
    expect(isLocalServer('http://localhost:1234/v1')).toBe(true)
    expect(isLocalServer('http://[::1]:8080/v1')).toBe(true)
    expect(isLocalServer('http://192.168.1.20:11434/v1')).toBe(true)
    expect(isLocalServer('https://openrouter.ai/api/v1')).toBe(false)
    expect(isLocalServer('https://api.groq.com/openai/v1')).toBe(false)
    expect(isLocalServer('http://8.8.8.8/v1')).toBe(false)
  })

  it('refuses a request longer than the window before sending it, saying how to raise it', async () => {
    const h = await startCoreHarness({ name: 'served-window', format: 'openai-compatible' })
    const ollama = await startFakeOllama(() => llamaShow(1024), {
      upstream: upstreamOf(h.fake.openaiBaseUrl)
    })
    const config = YAML.parse(await readFile(h.config, 'utf8')) as Record<string, unknown>
    await writeFile(
      h.config,
      YAML.stringify({
        ...config,
        providers: [{ id: 'fake', kind: 'openai-compatible', base_url: ollama.baseUrl }]
      })
    )
    h.fake.setScript([{ text: 'hello' }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: id, text: 'Hi' })
    await h.core.sessions.idle(id)
    const transcript = (await h.client.call('session.get', { sessionId: id })).transcript
    const end = transcript.find((i) => i.kind === 'turn-end')
    expect(end?.kind === 'turn-end' && end.error).toMatch(/context window of 1024 tokens.*num_ctx/s)
    expect(h.fake.chatRequests()).toEqual([])
  })

  it('lets a request within the window through the same server', async () => {
    const h = await startCoreHarness({ name: 'served-window-ok', format: 'openai-compatible' })
    const ollama = await startFakeOllama(() => llamaShow(131072), {
      upstream: upstreamOf(h.fake.openaiBaseUrl)
    })
    const config = YAML.parse(await readFile(h.config, 'utf8')) as Record<string, unknown>
    await writeFile(
      h.config,
      YAML.stringify({
        ...config,
        providers: [{ id: 'fake', kind: 'openai-compatible', base_url: ollama.baseUrl }]
      })
    )
    h.fake.setScript([{ text: 'hello' }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: id, text: 'Hi' })
    await h.core.sessions.idle(id)
    expect(h.fake.chatRequests()).toHaveLength(1)
    expect(ollama.shown).toEqual([{ model: 'fake-model' }])
  })
})
