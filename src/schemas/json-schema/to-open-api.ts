/**
 * The whole API as an OpenAPI 3.1 document, generated from the endpoint catalogue and the same Effect
 * schemas that `validatePayload` and `validateResponse` use.
 *
 * @module
 */
import { JsonSchema, Schema, type SchemaAST, SchemaRepresentation } from "effect"
import { type EndpointDefinition, endpoints } from "../endpoints/catalogue.js"
import { ENDPOINT_IDS, type EndpointId } from "../endpoints/endpoint-id.js"
import { identifierOf, namedObjects } from "./component-names.js"

/**
 * An OpenAPI Parameter Object (path or query).
 *
 * @example
 * toOpenApi().paths["/v1/data-import/transactions/create/"]?.post?.parameters?.[0]?.schema // { type: "boolean", default: true }
 *
 * @since 0.1.0
 */
export interface OpenApiParameter {
  readonly name: string
  readonly in: "path" | "query"
  readonly required: boolean
  readonly description?: string
  readonly schema: JsonSchema.JsonSchema
}

/**
 * An OpenAPI Response Object; `x-retry` is the catalogue's advice after an error status.
 *
 * @example
 * toOpenApi().paths["/v1/data-import/payment-instruction/create/"]?.post?.responses["500"]?.["x-retry"] // "retry-as-is"
 *
 * @since 0.1.0
 */
export interface OpenApiResponse {
  readonly description: string
  readonly content: { readonly "application/json": { readonly schema: JsonSchema.JsonSchema } }
  readonly "x-retry"?: string
}

/**
 * An OpenAPI Operation Object.
 *
 * @example
 * toOpenApi().paths["/v1/data-import/notes/create/"]?.post?.operationId // "notes"
 *
 * @since 0.1.0
 */
export interface OpenApiOperation {
  readonly operationId: string
  readonly summary: string
  readonly parameters?: ReadonlyArray<OpenApiParameter>
  readonly requestBody?: {
    readonly required: true
    readonly content: { readonly "application/json": { readonly schema: JsonSchema.JsonSchema } }
  }
  readonly responses: Readonly<Record<string, OpenApiResponse>>
}

/**
 * The OpenAPI 3.1 document {@link toOpenApi} returns.
 *
 * @example
 * const document: OpenApiDocument = toOpenApi()
 * Object.keys(document.components.schemas) // ["NoteDocument", "Note", "NotesRequest", …]
 *
 * @since 0.1.0
 */
export interface OpenApiDocument {
  readonly openapi: "3.1.0"
  readonly info: {
    readonly title: string
    readonly version: string
    readonly description: string
    readonly license: { readonly name: string; readonly identifier: string }
  }
  readonly servers: ReadonlyArray<JsonSchema.JsonSchema>
  readonly security: ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>
  readonly paths: Readonly<Record<string, Readonly<Partial<Record<"get" | "post", OpenApiOperation>>>>>
  readonly components: {
    readonly schemas: JsonSchema.Definitions
    readonly securitySchemes: Readonly<Record<string, JsonSchema.JsonSchema>>
  }
}

/** Name of the security scheme: the spec's `Authorization: Token <ACCESS_TOKEN>` header. */
const TOKEN_AUTH = "TokenAuth"

const pascal = (id: string): string => id.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")

/** The schemas an endpoint refers to, with the name each gets when it has no `identifier`. */
const rootsOf = (id: EndpointId, endpoint: EndpointDefinition): Array<{ schema: Schema.Top; fallback: string }> => [
  ...(endpoint.requestKind === "body" ? [{ schema: endpoint.request, fallback: `${pascal(id)}Request` }] : []),
  ...Object.entries(endpoint.responses).map(([status, response]) => ({
    schema: response.schema,
    fallback: `${pascal(id)}Response${status}`
  }))
]

/** The properties of an object schema as JSON Schemas (for path and query parameters). */
const propertiesOf = (schema: Schema.Top): Readonly<Record<string, JsonSchema.JsonSchema>> => {
  // No references: the parameters object is read property by property, never as a `$ref`.
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error", referencePolicy: () => undefined })
  return (document.schema["properties"] ?? {}) as Record<string, JsonSchema.JsonSchema>
}

const build = (): OpenApiDocument => {
  const catalogue: ReadonlyArray<readonly [EndpointId, EndpointDefinition]> = ENDPOINT_IDS.map((id) => [id, endpoints[id]])
  // Every root is a component: a schema with an identifier under it, an inline one (the transactions 400
  // union) under `<Endpoint>Response<status>`.
  const rootNames = new Map<SchemaAST.AST, string>()
  const roots: Array<SchemaAST.AST> = []
  for (const [id, endpoint] of catalogue) {
    for (const { schema, fallback } of rootsOf(id, endpoint)) {
      const ast = Schema.toCodecJson(schema).ast
      if (!rootNames.has(ast)) {
        rootNames.set(ast, identifierOf(schema.ast) ?? fallback)
        roots.push(ast)
      }
    }
  }
  const [first, ...rest] = roots
  if (first === undefined) throw new Error("The catalogue has no schemas.")
  const multi = JsonSchema.toMultiDocumentOpenApi3_1(SchemaRepresentation.toJsonSchemaMultiDocument(
    SchemaRepresentation.toRepresentations([first, ...rest], { referencePolicy: namedObjects(rootNames) }),
    { onExcessProperty: "error" }
  ))
  const refOf = (schema: Schema.Top): JsonSchema.JsonSchema => {
    const index = roots.indexOf(Schema.toCodecJson(schema).ast)
    const ref = multi.schemas[index]
    if (ref === undefined) throw new Error("A schema of the catalogue is missing from the OpenAPI components.")
    return ref
  }

  const paths: Record<string, Partial<Record<"get" | "post", OpenApiOperation>>> = {}
  for (const [id, endpoint] of catalogue) {
    const pathParameters = endpoint.requestKind === "path" ? propertiesOf(endpoint.request) : {}
    const queryProperties = endpoint.query !== undefined ? propertiesOf(endpoint.query) : {}
    const parameters: Array<OpenApiParameter> = [
      ...endpoint.pathParameters.map((name): OpenApiParameter => ({
        name,
        in: "path",
        required: true,
        schema: pathParameters[name] ?? { type: "string" }
      })),
      ...endpoint.queryParameters.map((q): OpenApiParameter => ({
        name: q.name,
        in: "query",
        required: false,
        description: q.description,
        schema: { ...(queryProperties[q.name] ?? { type: q.type }), default: q.default }
      }))
    ]
    const responses: Record<string, OpenApiResponse> = {}
    for (const [status, response] of Object.entries(endpoint.responses)) {
      responses[status] = {
        description: response.description,
        content: { "application/json": { schema: refOf(response.schema) } },
        ...(response.retry !== undefined ? { "x-retry": response.retry } : {})
      }
    }
    const operation: OpenApiOperation = {
      operationId: id,
      summary: endpoint.summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(endpoint.requestKind === "body"
        ? { requestBody: { required: true, content: { "application/json": { schema: refOf(endpoint.request) } } } }
        : {}),
      responses
    }
    const method = endpoint.method === "GET" ? "get" : "post"
    paths[endpoint.path] = { ...paths[endpoint.path], [method]: operation }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Customer Data Import API",
      version: "v1",
      description: "Migrate customer accounts from an external system: post-account-import data, status queries and " +
        "pre-account-import market data under /v1/data-import/. Generated from the data-import-payloads schemas.",
      // The document's licence: that of the schemas it is generated from (this package's).
      license: { name: "MIT", identifier: "MIT" }
    },
    servers: [{
      url: "{base_url}",
      description: "The instance's base URL; every path is relative to it.",
      variables: { base_url: { default: "https://api.example.com", description: "Obtained from the service operators." } }
    }],
    security: [{ [TOKEN_AUTH]: [] }],
    paths,
    components: {
      schemas: multi.definitions,
      securitySchemes: {
        [TOKEN_AUTH]: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "The word `Token`, a space, then the access token: `Authorization: Token <ACCESS_TOKEN>`. " +
            "The token comes from a GraphQL mutation authenticated with the organisation's API key."
        }
      }
    }
  }
}

let cached: string | undefined

/**
 * The OpenAPI 3.1 document of every endpoint: paths and methods, path parameters, the `transactions`
 * query parameters with their defaults, request bodies, responses by status (with `x-retry`, the advice
 * after an error status), and the `Authorization: Token …` header as the security scheme. Schemas live in
 * `components.schemas`, named after the library's exports (`NotesRequest`, `Note`, `ValidationErrorBody`, …);
 * they are the same JSON Schemas as {@link toJsonSchema}'s, with the same limits (see there).
 *
 * Each call returns a fresh object.
 *
 * @example
 * import { writeFileSync } from "node:fs"
 * import { toOpenApi } from "data-import-payloads"
 *
 * writeFileSync("data-import.openapi.json", JSON.stringify(toOpenApi(), null, 2))
 * toOpenApi().openapi // => "3.1.0"
 *
 * @since 0.1.0
 */
export const toOpenApi = (): OpenApiDocument => JSON.parse(cached ??= JSON.stringify(build())) as OpenApiDocument
