/**
 * Base of the opaque values our libraries add (Quantity, URL, IP, CIDR, Semver). The shared base
 * lets equality, string conversion and JSON output treat them uniformly without knowing each type.
 */
export abstract class CelCustomValue {
  /** The CEL type name, e.g. `kubernetes.Quantity`. */
  abstract readonly celTypeName: string
  /** CEL `==` between two values of the same custom type. */
  abstract celEquals(other: CelCustomValue): boolean
  /** The value as text: used for messages, `%s` formatting and JSON output. */
  abstract toString(): string

  toJSON(): string {
    return this.toString()
  }
}
