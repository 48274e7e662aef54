/**
 * Compiling a walk over a schema once per AST node, recursive schemas included.
 *
 * @module
 */
import type { SchemaAST } from "effect"

/**
 * Memoises `compile` per AST node: the returned function gives a node's compiled walker (or `undefined`,
 * when the node has nothing to do), compiling it on first use. While a node compiles, a recursive schema
 * (through Suspend) that meets it again gets a stand-in that calls the walker once it is made.
 *
 * @example
 * const seen: Array<unknown> = []
 * const walkerOf = perNode((ast) => (ast._tag === "String" ? (value: unknown) => void seen.push(value) : undefined))
 * walkerOf(Schema.String.ast)?.("hi")
 * walkerOf(Schema.Number.ast) // => undefined
 * walkerOf(Schema.String.ast) === walkerOf(Schema.String.ast) // => true
 * seen // => ["hi"]
 */
export const perNode = <W extends (...args: Array<any>) => void>(
  compile: (ast: SchemaAST.AST) => W | undefined
): ((ast: SchemaAST.AST) => W | undefined) => {
  const compiled = new WeakMap<SchemaAST.AST, W | undefined>()
  return (ast) => {
    if (compiled.has(ast)) return compiled.get(ast)
    let walker: W | undefined
    compiled.set(ast, ((...args: Array<unknown>) => walker?.(...args)) as W)
    walker = compile(ast)
    compiled.set(ast, walker)
    return walker
  }
}
