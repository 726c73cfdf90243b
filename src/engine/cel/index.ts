export { compileCel, setCelFastPath, type CelActivation, type CelProgram } from './compile.js'
export { setCelLimits, getCelLimits, type CelLimits } from './cost-budget.js'
export { CelCompileError, CelEvaluationError } from './errors.js'
export { celValueToString, fromCelValue, toCelValue } from './values.js'
