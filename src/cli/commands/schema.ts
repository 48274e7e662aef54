/**
 * `data-import schema ID [--openapi]`: the JSON Schema of an endpoint's request, or the OpenAPI 3.1
 * document reduced to that endpoint; `schema --openapi` alone: the OpenAPI document of every endpoint,
 * for tools outside TypeScript.
 *
 * @module
 */
import { ENDPOINT_IDS, endpoints, isEndpointId, mappingJsonSchema, toJsonSchema, toOpenApi } from "../../index.js"
import { EXIT, type ExitCode, Output, usageError } from "../../readers/index.js"

const COMPONENT_REF = "#/components/schemas/"

/** Every `$ref` to a component schema inside a JSON value. */
const refsIn = (value: unknown, into: Set<string>): void => {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, into)
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith(COMPONENT_REF)) into.add(child.slice(COMPONENT_REF.length))
      else refsIn(child, into)
    }
  }
}

/** The OpenAPI document with only the endpoint's path and the component schemas it needs (transitively). */
export const openApiFor = (id: string): Record<string, unknown> => {
  if (!isEndpointId(id)) throw usageError(`unknown endpoint ${id}: use one of ${ENDPOINT_IDS.join(", ")}`)
  const document = toOpenApi()
  const template = endpoints[id].path
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path === template || path.endsWith(template)))
  const needed = new Set<string>()
  refsIn(paths, needed)
  const schemas = document.components.schemas as Record<string, unknown>
  for (const seen = new Set<string>(); needed.size > seen.size;) {
    for (const name of [...needed]) {
      if (seen.has(name)) continue
      seen.add(name)
      refsIn(schemas[name], needed)
    }
  }
  return {
    ...document,
    paths,
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.keys(schemas).filter((name) => needed.has(name)).map((name) => [name, schemas[name]]))
    }
  }
}

/** Prints the JSON Schema (or the reduced OpenAPI document) of an endpoint. */
export const runSchema = async (id: string | undefined, options: { readonly openapi?: boolean | undefined; readonly mapping?: boolean | undefined }): Promise<ExitCode> => {
  if (options.mapping === true && id !== undefined) throw usageError("give either an endpoint id or --mapping")
  if (options.mapping === true && options.openapi === true) throw usageError("give either --openapi or --mapping")
  if (options.mapping !== true && options.openapi !== true && id === undefined) {
    throw usageError(`name an endpoint (one of ${ENDPOINT_IDS.join(", ")}), or --openapi for all of them, or --mapping`)
  }
  if (id !== undefined && !isEndpointId(id)) throw usageError(`unknown endpoint ${id}: use one of ${ENDPOINT_IDS.join(", ")}`)
  const document = options.mapping === true
    ? mappingJsonSchema()
    : options.openapi === true
    ? id === undefined ? toOpenApi() : openApiFor(id)
    : toJsonSchema(id!)
  const out = new Output(process.stdout, "stdout")
  out.write(`${JSON.stringify(document, null, 2)}\n`)
  await out.close()
  return EXIT.ok
}
