// The baseline of bench/serve.mjs: a bare node:http server that reads the JSON body, parses it and
// echoes it with 201 (no authentication, validation or storage), on keep-alive connections like serve.
import { createServer } from "node:http"

const server = createServer({ keepAliveTimeout: 5_000 }, async (req, res) => {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const text = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")))
  res.writeHead(201, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) })
  res.end(text)
})
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
