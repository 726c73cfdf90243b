import { RE2JS } from 're2js'
import { JmespathBudgetError, metered } from '../budget.js'
import { JmespathError } from '../errors.js'
import { asJmespathError } from '../evaluate.js'
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'
import type { VariableContext } from '../substitution/substitute.js'
import { prepareQuery, type PreparedQuery } from '../prepared-query.js'
import { mergeValue, pushValue, splitVariableKey } from './merge-values.js'

/**
 * The variables a Kyverno rule sees (Kyverno's JSON context): `request.*`, `serviceAccountName`,
 * `images`, the rule's context entries, `element` in a foreach. Built by buildKyvernoContext,
 * then narrowed per rule and per foreach element with the `with*` methods, each of which returns
 * a new context layered over its parent and leaves the parent as it was, so one rule's
 * variables never leak into the next (Kyverno checkpoints and restores its context for that).
 *
 * Context entries load lazily, as Kyverno's deferred loaders do: an entry is evaluated the first
 * time a query mentions its name (`(^|\s|[^.0-9A-Za-z])name\b`), so an entry that would fail
 * fails only the rules that use it. While an entry loads, it sees the entries declared before it
 * only. A failed entry fails every later query that mentions it with the same error (Kyverno
 * reports the error once and then reads the name as missing).
 */

/** A context entry waiting to be loaded. */
export interface DeferredEntry {
  readonly name: string
  /** Replace the name's value (variable entries), or deep-merge into it (configMap, images). */
  readonly merge: boolean
  /** The value to add, or undefined to add nothing. Runs once, in the context that declared it. */
  readonly load: (context: KyvernoContext) => JsonValue | undefined
}

/**
 * Counts every change of variables in any context (a context entry loading, values added): a
 * remembered query value is good only while it has not moved. Coarse, and so simply correct.
 */
let variablesEpoch = 0

interface EntryState {
  readonly entry: DeferredEntry
  readonly matcher: RE2JS
  status: 'pending' | 'loading' | 'loaded' | 'failed'
  error: unknown
}

export class KyvernoContext implements VariableContext {
  readonly #parent: KyvernoContext | undefined
  readonly #own: JsonObject
  readonly #now: Date | undefined
  readonly #entries: EntryState[] = []
  #version = 0
  #cache: { readonly parent: JsonObject | undefined; readonly version: number; readonly data: JsonObject } | undefined
  #withEntries: readonly KyvernoContext[] | undefined
  /** While an entry of this context loads: how many of its entries it may see. */
  #visibleEntries: number | undefined
  #memo: Map<PreparedQuery, { readonly epoch: number; readonly value: JsonValue }> | undefined

  private constructor(parent: KyvernoContext | undefined, own: JsonObject, now?: Date) {
    this.#parent = parent
    this.#own = own
    this.#now = now ?? (parent ? parent.#now : undefined)
  }

  /**
   * A context holding exactly `data` (its top-level keys are the variables). `now` fixes the
   * clock time_now() reads in its queries and substitutions (the real time when absent).
   */
  static fromData(data: JsonObject, now?: Date): KyvernoContext {
    // Spreading defines own properties, so a `__proto__` key stays data.
    return new KyvernoContext(undefined, { ...data }, now)
  }

  /** The fixed clock of this context, if it has one. */
  now(): Date | undefined {
    return this.#now
  }

  /** All variables, with every context entry loaded so far. Do not modify it. */
  data(): JsonObject {
    const parent = this.#parent?.data()
    const cache = this.#cache
    if (cache && cache.parent === parent && cache.version === this.#version) return cache.data
    // Spreading defines own properties (a `__proto__` key stays data) and is the fastest copy V8 has.
    const data: JsonObject = parent === undefined ? this.#own : { ...parent, ...this.#own }
    this.#cache = { parent, version: this.#version, data }
    return data
  }

  /** `request.operation` (CREATE, UPDATE, DELETE, CONNECT), or '' when there is none. */
  operation(): string {
    // Only a layer that sets `request` can change it; the others (foreach elements) ask their parent without merging.
    if (this.#parent !== undefined && !Object.hasOwn(this.#own, 'request')) return this.#parent.operation()
    const request = this.data().request
    const operation = isJsonObject(request) && Object.hasOwn(request, 'operation') ? request.operation : undefined
    return typeof operation === 'string' ? operation : ''
  }

  /**
   * Kyverno's Query: loads the context entries the expression names, then evaluates it over the
   * variables. Errors read as Kyverno's: "invalid query (nil)", "incorrect query <expr>: ...",
   * "JMESPath query failed: Unknown key ...". A context that remembers queries (see
   * rememberQueries) answers a pure query it answered before from memory while no variable
   * anywhere has changed since.
   */
  query(expression: string): JsonValue {
    const query = prepareQuery(expression)
    const memo = query.pure ? this.#memo?.get(query) : undefined
    if (memo !== undefined && memo.epoch === variablesEpoch) return memo.value
    const value = metered(() => this.#run(query), this.#now)
    if (query.pure && this.#memo !== undefined) this.#memo.set(query, { epoch: variablesEpoch, value })
    return value
  }

  #run(query: PreparedQuery): JsonValue {
    this.#loadMatching(query.expression)
    if (query.problem !== undefined || query.evaluate === undefined) {
      throw new JmespathError(query.problem?.message ?? 'invalid query (nil)', query.problem?.cause === undefined ? undefined : { cause: query.problem.cause })
    }
    try {
      return query.evaluate(this.data())
    } catch (error) {
      if (error instanceof JmespathBudgetError) throw error
      const reason = asJmespathError(error)
      throw new JmespathError(`JMESPath query failed: ${reason.message}`, { cause: reason })
    }
  }

  /**
   * Makes this context remember the values of its pure queries, for a context many rules query
   * in turn (the request context of one input). Values are shared, as the data they come from
   * is: nothing may modify them.
   */
  rememberQueries(): this {
    this.#memo ??= new Map()
    return this
  }

  /** Kyverno's EvaluateList for foreach: the query's value as a list (a non-list is a one-element list). */
  queryList(expression: string): JsonValue[] {
    const value = this.query(expression)
    return Array.isArray(value) ? value : [value]
  }

  /**
   * The context of one foreach element: `element`, `elementIndex` and their nesting-numbered
   * twins (`element0`, `elementIndex0` for the outermost foreach), replacing those of an
   * enclosing foreach.
   */
  withElement(element: JsonValue, index: number, nesting = 0): KyvernoContext {
    // Literals rather than one property at a time: a context is made per element, and none of these names is `__proto__`.
    const own: JsonObject =
      nesting === 0
        ? { element, element0: element, elementIndex: index, elementIndex0: index }
        : { element, [`element${nesting}`]: element, elementIndex: index, [`elementIndex${nesting}`]: index }
    return new KyvernoContext(this, own)
  }

  /**
   * Values as a Kyverno values file gives them: each key is a dotted path
   * (`request.object.metadata.name`, `"a.b".c` for a key with dots), deep-merged into the
   * variables.
   */
  withVariables(values: Readonly<Record<string, JsonValue>>): KyvernoContext {
    const child = new KyvernoContext(this, {})
    for (const key of Object.keys(values)) child.addVariable(key, values[key] as JsonValue)
    return child
  }

  /** A child context that will load `entries` when a query names them (see context-entries.ts). */
  withDeferredEntries(entries: readonly DeferredEntry[]): KyvernoContext {
    const child = new KyvernoContext(this, {})
    for (const entry of entries) child.#entries.push({ entry, matcher: nameMatcher(entry.name), status: 'pending', error: undefined })
    return child
  }

  /** True when a variable of this top-level name exists (loaded or given). */
  has(name: string): boolean {
    return Object.hasOwn(this.data(), name)
  }

  /** Kyverno's AddVariable: a dotted key's value deep-merged into this context's variables. */
  private addVariable(key: string, value: JsonValue): void {
    const keys = splitVariableKey(key)
    this.#merge(keys[0] as string, pushValue(keys.slice(1), value))
  }

  #merge(name: string, value: JsonValue): void {
    const current = Object.hasOwn(this.data(), name) ? this.data()[name] : undefined
    this.#set(name, mergeValue(current, value))
  }

  #set(name: string, value: JsonValue): void {
    setOwn(this.#own, name, value)
    this.#version++
    variablesEpoch++
  }

  /**
   * This context and its ancestors that declare entries, outermost first (the order Kyverno added
   * their entries). Entries are declared when a context is made, so the list never changes.
   */
  #entryChain(): readonly KyvernoContext[] {
    if (this.#withEntries === undefined) {
      const ancestors = this.#parent ? this.#parent.#entryChain() : []
      this.#withEntries = this.#entries.length > 0 ? [...ancestors, this] : ancestors
    }
    return this.#withEntries
  }

  #loadMatching(query: string): void {
    for (const context of this.#entryChain()) {
      const visible = context.#visibleEntries ?? context.#entries.length
      for (let i = 0; i < visible; i++) {
        const state = context.#entries[i] as EntryState
        if (state.status === 'loaded' || state.status === 'loading') continue
        if (!query.includes(state.entry.name) || !state.matcher.test(query)) continue
        if (state.status === 'failed') throw state.error
        context.#load(state, i)
      }
    }
  }

  #load(state: EntryState, index: number): void {
    const saved = this.#visibleEntries
    state.status = 'loading'
    this.#visibleEntries = index
    try {
      const value = state.entry.load(this)
      if (value !== undefined) {
        if (state.entry.merge) this.#merge(state.entry.name, value)
        else this.#set(state.entry.name, value)
      }
      state.status = 'loaded'
    } catch (error) {
      // A budget error belongs to this operation, not to the entry: a later one may load it.
      state.status = error instanceof JmespathBudgetError ? 'pending' : 'failed'
      state.error = error
      throw error
    } finally {
      this.#visibleEntries = saved
    }
  }
}

const MATCHER_CACHE_LIMIT = 1_000
const matchers = new Map<string, RE2JS>()

/** Kyverno's deferred-loader match: the name at a word boundary, not after a '.', letter or digit. */
function nameMatcher(name: string): RE2JS {
  let matcher = matchers.get(name)
  if (matcher === undefined) {
    matcher = RE2JS.compile(`(?:\\A|\\z|\\s|[^.0-9A-Za-z])${RE2JS.quote(name)}\\b`)
    if (matchers.size >= MATCHER_CACHE_LIMIT) matchers.delete(matchers.keys().next().value as string)
    matchers.set(name, matcher)
  }
  return matcher
}
