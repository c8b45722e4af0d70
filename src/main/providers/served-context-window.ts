import ipaddr from 'ipaddr.js'
import { z } from 'zod'
import type { ProviderSettings } from '../../shared/settings'
import { abortableFetch } from '../net/abortable-fetch'
import { withDeadline } from '../net/deadline'

/** A context window a local model server reported for one model, and how to raise it there. */
export interface ServedWindow {
  tokens: number
  server: 'ollama' | 'lm-studio' | 'llama.cpp'
  /** What the person can do to give the model a larger window on that server. */
  raise: string
}

/**
 * Ollama serves a model with `num_ctx` tokens whatever the model was trained on, and its OpenAI
 * endpoint takes no `num_ctx`: unless the Modelfile sets one, the server's default applies
 * (4096 since Ollama 0.6; `OLLAMA_CONTEXT_LENGTH` changes it, which no endpoint reports).
 */
export const OLLAMA_DEFAULT_NUM_CTX = 4096

/** A server that answers nothing within this is taken not to tell; the turn goes on without. */
const PROBE_TIMEOUT_MS = 3000

const ollamaPs = z.object({
  models: z.array(
    z.object({
      name: z.string().optional(),
      model: z.string().optional(),
      context_length: z.number().int().positive().optional()
    })
  )
})
const ollamaShow = z.object({
  parameters: z.string().optional(),
  model_info: z.record(z.string(), z.unknown()).optional()
})
const lmStudioModel = z.object({
  max_context_length: z.number().int().positive().optional(),
  loaded_context_length: z.number().int().positive().optional()
})
const llamaCppProps = z.object({
  default_generation_settings: z.object({ n_ctx: z.number().int().positive() })
})

/** The server's root: the OpenAI base URL without its `/v1`. */
function rootOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')
}

/** One probe of a server: its deadline, and whether the server answered at all. */
interface Probe {
  signal: AbortSignal
  reached: boolean
}

async function getJson(url: string, probe: Probe, body?: unknown): Promise<unknown> {
  const { signal } = probe
  const response = await abortableFetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    redirect: 'error'
  })
  probe.reached = true
  if (!response.ok) return undefined
  return response.json().catch(() => undefined)
}

const ollamaRaise = (model: string): string =>
  `raise Ollama's num_ctx for ${model} (in \`ollama run ${model}\`: \`/set parameter num_ctx 32768\` then \`/save ${model}\`, or start \`ollama serve\` with OLLAMA_CONTEXT_LENGTH=32768), or set context_windows for it in Settings if the server already serves more`

async function fromOllama(root: string, model: string, probe: Probe): Promise<ServedWindow | null> {
  const raise = ollamaRaise(model)
  // A loaded model's own window, as the server actually runs it (Ollama 0.11 and later).
  const ps = ollamaPs.safeParse(await getJson(`${root}/api/ps`, probe).catch(() => undefined))
  const running = ps.success
    ? ps.data.models.find((m) => [m.name, m.model].some((name) => sameOllamaModel(name, model)))
    : undefined
  const show = ollamaShow.safeParse(await getJson(`${root}/api/show`, probe, { model }))
  if (!show.success) return null
  if (running?.context_length) {
    return { tokens: running.context_length, server: 'ollama', raise }
  }
  const numCtx = /^num_ctx\s+(\d+)\s*$/m.exec(show.data.parameters ?? '')?.[1]
  const trained = Object.entries(show.data.model_info ?? {}).find(
    ([key, value]) => key.endsWith('.context_length') && typeof value === 'number' && value > 0
  )?.[1] as number | undefined
  const served = numCtx ? Number(numCtx) : OLLAMA_DEFAULT_NUM_CTX
  return { tokens: trained ? Math.min(served, trained) : served, server: 'ollama', raise }
}

/** Ollama names a model without a tag as its `:latest`. */
function sameOllamaModel(listed: string | undefined, model: string): boolean {
  const full = (name: string): string => (name.includes(':') ? name : `${name}:latest`)
  return listed !== undefined && full(listed) === full(model)
}

async function fromLmStudio(
  root: string,
  model: string,
  probe: Probe
): Promise<ServedWindow | null> {
  const url = `${root}/api/v0/models/${encodeURIComponent(model)}`
  const parsed = lmStudioModel.safeParse(await getJson(url, probe))
  const tokens = parsed.success
    ? (parsed.data.loaded_context_length ?? parsed.data.max_context_length)
    : undefined
  if (!tokens) return null
  return {
    tokens,
    server: 'lm-studio',
    raise: `load ${model} in LM Studio with a larger Context Length (\`lms load ${model} --context-length 32768\`)`
  }
}

async function fromLlamaCpp(root: string, probe: Probe): Promise<ServedWindow | null> {
  const parsed = llamaCppProps.safeParse(await getJson(`${root}/props`, probe))
  if (!parsed.success) return null
  return {
    tokens: parsed.data.default_generation_settings.n_ctx,
    server: 'llama.cpp',
    raise: 'restart llama-server with a larger context (`-c 32768`)'
  }
}

/**
 * Only servers on this machine or its network are asked: a hosted OpenAI-compatible service
 * (OpenRouter, Groq…) has none of these endpoints, and need not hear of them.
 */
export function isLocalServer(baseUrl: string): boolean {
  let host: string
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return false
  }
  if (host === 'localhost' || host.endsWith('.local') || !host.includes('.')) {
    return !ipaddr.isValid(host) || isLocalAddress(host)
  }
  return ipaddr.isValid(host) && isLocalAddress(host)
}

function isLocalAddress(host: string): boolean {
  const address = ipaddr.process(host)
  return ['loopback', 'private', 'linkLocal', 'uniqueLocal'].includes(address.range())
}

/** Asks Ollama, then LM Studio, then llama.cpp what window `model` is served with. */
export async function probeServedWindow(
  baseUrl: string,
  model: string,
  signal?: AbortSignal
): Promise<ServedWindow | null> {
  return (await probeWithin(baseUrl, model, signal)).window
}

/** One probe under its deadline (see net/deadline.ts for why not `AbortSignal.timeout`). */
function probeWithin(
  baseUrl: string,
  model: string,
  parent?: AbortSignal
): Promise<{ window: ServedWindow | null; reached: boolean }> {
  return withDeadline(
    PROBE_TIMEOUT_MS,
    (signal) => probeServer(baseUrl, model, { signal, reached: false }),
    parent
  )
}

async function probeServer(
  baseUrl: string,
  model: string,
  probe: Probe
): Promise<{ window: ServedWindow | null; reached: boolean }> {
  const root = rootOf(baseUrl)
  for (const ask of [
    () => fromOllama(root, model, probe),
    () => fromLmStudio(root, model, probe),
    () => fromLlamaCpp(root, probe)
  ]) {
    const window = await ask().catch(() => null)
    if (window) return { window, reached: true }
    if (probe.signal.aborted) break
  }
  return { window: null, reached: probe.reached }
}

/**
 * Each server is asked once per model while the process runs (once it answers), so a turn
 * does not wait on a probe after the first; a window changed on the server applies after a
 * restart, or at once through `context_windows`.
 */
const asked = new Map<string, Promise<ServedWindow | null>>()

/** The window an OpenAI-compatible local provider serves `model` with, or null if it tells none. */
export function servedWindowFor(
  provider: ProviderSettings | undefined,
  model: string
): Promise<ServedWindow | null> {
  if (provider?.kind !== 'openai-compatible' || !provider.base_url) return Promise.resolve(null)
  if (!isLocalServer(provider.base_url)) return Promise.resolve(null)
  const key = `${provider.base_url}\n${model}`
  let found = asked.get(key)
  if (!found) {
    const asking = probeWithin(provider.base_url, model)
    // A server not running yet is asked again next turn; one that answered without telling a
    // window (vLLM, say) is not.
    found = asking.then(({ window, reached }) => {
      if (!window && !reached) asked.delete(key)
      return window
    })
    asked.set(key, found)
  }
  return found
}
