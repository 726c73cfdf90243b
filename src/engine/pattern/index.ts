// Kyverno-compatible validate patterns: compile once (compile-pattern), match many (match-pattern),
// judged per rule with Kyverno's messages (judge-patterns).
export { compilePattern, MAX_PATTERN_DEPTH, type CompiledPattern, type PatternProblem } from './compile-pattern.js'
export { matchPattern, type MatchOptions, type PatternOutcome } from './match-pattern.js'
export { judgePatterns, type JudgeOptions, type PatternJudgement, type PatternValidation } from './judge-patterns.js'
export type { PatternField, Requirement } from './mismatch.js'
export { describeRequirement, type RequirementText } from './requirement-text.js'
export { kyvernoPathText, type PathMapping } from './pattern-path.js'
export { holdsReferences, holdsVariables, type PatternSubstitute } from './substitution.js'
