/**
 * The readers as the commands use them: inputs and outputs (files, stdin, stdout), the errors a run ends
 * with and their exit codes, and the record readers `validate` and `send` read with. Not part of the
 * package's exports: the CLI's entry to them.
 *
 * @module
 */
export { CliError, describeError, EXIT, type ExitCode, ioError, usageError } from "./exit-codes.js"
export {
  type InputKind,
  openInput,
  openOutput,
  Output,
  READ_CHUNK_BYTES,
  readChunks,
  type RegularFile,
  sizeOf,
  sniffStdin,
  UnreadableInput,
  validateInputKind,
  validateInputs
} from "./io.js"
export { JsonDocumentSplitter, type JsonPiece } from "./json/json-document.js"
export { readJsonFile } from "./json/read-json-file.js"
export { LineChunker } from "./lines/line-chunks.js"
export { physicalLines } from "./lines/physical-lines.js"
export { CLI_CODES, DEFAULT_MAX_LINE_BYTES, overlongDetail, unparseable } from "./rows/record-errors.js"
export { DEFAULT_DELIMITERS } from "./rows/source-rows.js"
