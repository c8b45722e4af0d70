import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron'
import { ipcChannels, type EventFrame, type PreloadBridge } from '../shared/contract/bridge'

// The page gets two verbs and where a dropped file lives, nothing else: no ipcRenderer, no
// process, no Node. Names are checked in the main process (the router answers an unknown call,
// and only contract events are sent): the list lives with the contract's schemas, which a
// sandboxed preload cannot load.
let announced = false

const bridge: PreloadBridge = {
  call(method, input) {
    if (typeof method !== 'string') {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_method', message: `there is no call named ${String(method)}` }
      })
    }
    return ipcRenderer.invoke(ipcChannels.call, { method, input })
  },
  subscribe(listener) {
    const onEvent = (_event: IpcRendererEvent, frame: EventFrame): void => {
      if (typeof frame?.event === 'string') listener({ event: frame.event, payload: frame.payload })
    }
    ipcRenderer.on(ipcChannels.event, onEvent)
    if (!announced) {
      announced = true
      ipcRenderer.send(ipcChannels.ready)
    }
    return () => {
      ipcRenderer.removeListener(ipcChannels.event, onEvent)
    }
  },
  pathForFile(file) {
    try {
      return webUtils.getPathForFile(file)
    } catch {
      return ''
    }
  }
}

contextBridge.exposeInMainWorld('mecatl', bridge)
