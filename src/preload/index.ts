import { contextBridge } from 'electron'
import { isCallName } from '../shared/contract/names'
contextBridge.exposeInMainWorld('x', isCallName)
