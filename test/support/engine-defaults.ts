import { defaultCelLimits, setCelFastPath, setCelLimits } from '../../src/engine/cel/index.js'
import { defaultJmespathLimits, setJmespathLimits } from '../../src/engine/jmespath/index.js'

/**
 * vitest setup file, run before each test file. Files that share their worker's modules
 * (isolate: false) share the engine's process-wide settings too: each file starts from the
 * defaults, whatever the file before it left (a service started with VERDICT_CEL_MAX_COST, a test
 * that turned the CEL fast path off).
 */
setCelLimits(defaultCelLimits())
setJmespathLimits(defaultJmespathLimits())
setCelFastPath(true)
