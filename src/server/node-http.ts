import { createRequire } from 'node:module'
import type * as Http from 'node:http'

/**
 * node:http, required rather than imported. An ESM import of a built-in module builds its
 * namespace from every export, and node:http's WebSocket, CloseEvent and MessageEvent are getters
 * that load Node's bundled undici: about 2.4 MB of heap and 14 MB of RSS for classes nothing here
 * uses. require reads only the properties asked for.
 */
export const nodeHttp: typeof Http = createRequire(import.meta.url)('node:http') as typeof Http
