import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron'
import { ipcChannels, type EventFrame, type PreloadBridge } from '../shared/contract/bridge'
import { isCallName, isEventName } from '../shared/contract/names'

// The page gets two verbs and where a dropped file lives, nothing else: no ipcRenderer, no
// process, no Node.
let announced = false

const bridge: PreloadBridge = {
  call(method, input) {
    if (!isCallName(method)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_method', message: `there is no call named ${String(method)}` }
      })
    }
    return ipcRenderer.invoke(ipcChannels.call, { method, input })
  },
  subscribe(listener) {
    const onEvent = (_event: IpcRendererEvent, frame: EventFrame): void => {
      if (isEventName(frame?.event)) listener({ event: frame.event, payload: frame.payload })
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
