// The one place where the values of Wails' bindings take the types of
// ./wire.gen.ts (used by the generated ./wailsBound.gen.ts). Wails types
// Go's named string types as plain strings.

/**
 * Widened is T as Wails types it: every string union a plain string, the
 * rest the same shape. typed<T> accepts a binding's result only when it has
 * every field of the generated type with that type, unions widened (a field
 * the contract has and the binding lacks, or types otherwise, fails to
 * compile here). Narrowing the strings back to the unions is sound because
 * both generators read the same Go fields, whose types are the named enums.
 */
type Widened<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Widened<U>[]
    : T extends object
      ? { [K in keyof T]: Widened<T[K]> }
      : T;

export function typed<T>(v: Widened<T>): T {
  return v as T;
}
