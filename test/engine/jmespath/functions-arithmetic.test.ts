import { describe, expect, it } from 'vitest'
import { jp, jpError } from './helpers.js'

// Kyverno's operand table: numbers (backtick literals), quantities and durations (strings).

describe('add and subtract', () => {
  it('adds numbers, quantities and durations of the same kind', () => {
    expect(jp('add(`12`, `13`)')).toBe(25)
    expect(jp("add('12Ki', '13Ki')")).toBe('25Ki')
    expect(jp("add('12Ki', '13')")).toBe('12301')
    expect(jp("add('12s', '13s')")).toBe('25s')
    expect(jp("add('1h', '30m15s')")).toBe('1h30m15s')
    expect(jp("add('100Mi', '100Mi')")).toBe('200Mi')
    expect(jp("add('500m', '500m')")).toBe('1')
    expect(jp("add('1.5', '1.5')")).toBe('3')
  })

  it('refuses mixed kinds with Kyverno\'s "Types mismatch"', () => {
    for (const expression of ["add('12', '13s')", "add(`12`, '13Ki')", "add(`12`, '13')", "add('12Ki', `13`)", "add('12s', `13`)", "add('12s', '13Ki')"]) {
      expect(jpError(expression).message).toBe("JMESPath function 'add': Types mismatch")
    }
  })

  it('refuses operands that are neither numbers, quantities nor durations', () => {
    expect(jpError("add('abc', '1')").message).toBe("JMESPath function 'add': invalid operand")
    expect(jpError('add(`true`, `1`)').message).toBe("JMESPath function 'add': invalid operand")
    expect(jpError('add(`null`, `1`)').message).toBe("JMESPath function 'add': invalid operand")
  })

  it('reads 1m as a milli quantity, not a minute', () => {
    expect(jp("add('1m', '1m')")).toBe('2m')
    expect(jpError("add('1m', '1h')").message).toBe("JMESPath function 'add': Types mismatch")
  })

  it('subtracts in the first operand\'s format', () => {
    expect(jp('subtract(`12`, `13`)')).toBe(-1)
    expect(jp("subtract('12Ki', '13Ki')")).toBe('-1Ki')
    expect(jp("subtract('12Ki', '13')")).toBe('12275')
    expect(jp("subtract('12s', '13s')")).toBe('-1s')
    expect(jp("subtract('10Mi', '5Ki')")).toBe('10235Ki')
    expect(jpError("subtract('12s', `13`)").message).toBe("JMESPath function 'subtract': Types mismatch")
  })
})

describe('multiply, divide and modulo', () => {
  it('multiplies a quantity or a duration by a number, in either order', () => {
    expect(jp("multiply('12Ki', `2`)")).toBe('24Ki')
    expect(jp("multiply(`2`, '12Ki')")).toBe('24Ki')
    expect(jp("multiply('12s', `2`)")).toBe('24s')
    expect(jp("multiply('1h', `1.5`)")).toBe('1h30m0s')
    expect(jp("multiply('250m', `3`)")).toBe('750m')
    expect(jp('multiply(`3`, `4`)')).toBe(12)
    expect(jpError("multiply('12Ki', '12Ki')").message).toBe("JMESPath function 'multiply': Types mismatch")
    expect(jpError("multiply('12s', '12s')").message).toBe("JMESPath function 'multiply': Types mismatch")
  })

  it('divides: like kinds give a number, by a number keeps the kind', () => {
    expect(jp("divide('10Mi', '5Ki')")).toBe(2048)
    expect(jp("divide('12Ki', `2`)")).toBe('6Ki')
    expect(jp("divide('1', `3`)")).toBe('0')
    // Go's QuoRound truncates to the larger decimal scale of the operands: 1.5 has one place.
    expect(jp("divide('1.5', `2`)")).toBe('700m')
    expect(jp("divide('1.50', `2`)")).toBe('750m')
    expect(jp("divide('12s', '4s')")).toBe(3)
    expect(jp("divide('12s', `4`)")).toBe('3s')
    expect(jp('divide(`12`, `5`)')).toBe(2.4)
    expect(jp("divide('2Gi', '1Gi')")).toBe(2)
    expect(jpError("divide(`12`, '4s')").message).toBe("JMESPath function 'divide': Types mismatch")
  })

  it('refuses a zero divisor', () => {
    for (const expression of ['divide(`1`, `0`)', "divide('1Ki', '0')", "divide('1Ki', `0`)", "divide('1s', '0s')", "divide('1s', `0`)"]) {
      expect(jpError(expression).message).toBe("JMESPath function 'divide': Zero divisor passed")
    }
  })

  it('computes the remainder of integers, quantities and durations', () => {
    expect(jp('modulo(`10`, `3`)')).toBe(1)
    expect(jp('modulo(`-10`, `3`)')).toBe(-1)
    expect(jp("modulo('10Ki', '3Ki')")).toBe('1Ki')
    expect(jp("modulo('7', '2')")).toBe('1')
    expect(jp("modulo('1h', '25m0s')")).toBe('10m0s')
    // '25m' is 25 milli (a quantity), so this mixes a duration with a quantity.
    expect(jpError("modulo('1h', '25m')").message).toBe("JMESPath function 'modulo': Types mismatch")
    expect(jpError('modulo(`10.5`, `3`)').message).toBe("JMESPath function 'modulo': Non-integer argument(s) passed for modulo")
    expect(jpError("modulo('1500m', '1')").message).toBe("JMESPath function 'modulo': Non-integer argument(s) passed for modulo")
    expect(jpError('modulo(`1`, `0`)').message).toBe("JMESPath function 'modulo': Zero divisor passed")
    expect(jpError("modulo('1s', `1`)").message).toBe("JMESPath function 'modulo': Types mismatch")
  })
})

describe('sum and round', () => {
  it('sums numbers, quantities or durations', () => {
    expect(jp('sum(`[6, 3, 8]`)')).toBe(17)
    expect(jp('sum(@)', ['2Ki', '5Gi', '8Mi'])).toBe('5251074Ki')
    expect(jp('sum(@)', ['2h', '50s', '90s'])).toBe('2h2m20s')
    expect(jp("sum(['12Ki'])", {})).toBe('12Ki')
    expect(jp('sum(@)', ['12Ki', '13'])).toBe('12301')
  })

  it('refuses an empty or mixed list', () => {
    expect(jpError('sum(`[]`)').message).toBe("JMESPath function 'sum': at least one element in the array is required")
    expect(jpError('sum(@)', ['12s', 13]).message).toBe("JMESPath function 'sum': Types mismatch")
  })

  it('sums the memory requests of a Pod', () => {
    const pod = { spec: { containers: [{ resources: { requests: { memory: '512Mi' } } }, { resources: { requests: { memory: '1Gi' } } }] } }
    expect(jp('sum(spec.containers[].resources.requests.memory)', pod)).toBe('1536Mi')
  })

  it('rounds half away from zero to the given places', () => {
    expect(jp('round(`10.125`, `2`)')).toBe(10.13)
    expect(jp('round(`10.123456`, `2`)')).toBe(10.12)
    expect(jp('round(`2.5`, `0`)')).toBe(3)
    expect(jp('round(`-2.5`, `0`)')).toBe(-3)
    expect(jpError('round(`1`, `1.5`)').message).toBe("JMESPath function 'round': Non-integer argument(s) passed for round off")
    expect(jpError('round(`1`, `-1`)').message).toMatch(/^JMESPath function 'round': /)
  })
})
