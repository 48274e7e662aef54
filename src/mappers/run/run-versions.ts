/**
 * The versions of a `map` run over EDIFACT inputs whose reader file has `versions`: every input is read
 * before anything is mapped (its message headers, then its values' keys), so that the latest version of
 * each value is known whichever file it is in, and each cancellation finds the document it names. The
 * reading of each input then consults the result ({@link RunVersions.forInput}) record by record.
 *
 * @module
 */
import type { Mapping } from "../define-mapping.js"
import { type InputVersions, VersionIndex } from "../../readers/edifact/versions.js"
import type { MapVersions } from "../../ledger/map-versions.js"
import type { EdifactRecord } from "../../readers/edifact/records.js"
import { recordSelection, selectionColumns, selectionOf } from "../../readers/edifact/selection.js"
import { edifactPlace, readEdifactReaderFile } from "../../readers/edifact/edifact-source.js"
import { ioError, usageError } from "../../readers/exit-codes.js"
import { openInput, readChunks, UnreadableInput } from "../../readers/io.js"

/**
 * The versions of the values of a run's inputs (`inputs`, in the run's order). {@link read} reads them,
 * {@link settle} compares them with the campaign's ledger; the reading of each input consults
 * {@link forInput}, which may be asked before the index is built (the first input is opened early), as
 * long as its records are read after.
 */
export class RunVersions {
  private index: VersionIndex | undefined
  private readonly opened = new Map<string, number>()
  /** Each input name's places in the run, in order: looked up once a file, so a run of 10⁵ files stays linear. */
  private readonly places = new Map<string, Array<number>>()

  constructor(private readonly inputs: ReadonlyArray<string>) {
    for (const [i, name] of inputs.entries()) {
      const list = this.places.get(name)
      if (list === undefined) this.places.set(name, [i])
      else list.push(i)
    }
  }

  /**
   * Reads every input's message headers, then every input's value keys (a usage error when the reader
   * file asks for versions and an input is stdin, which can be read once only; nothing is read when it
   * does not ask for them).
   */
  async read(mapping: Mapping, mappingPath: string): Promise<void> {
    const { options } = await readEdifactReaderFile(mapping, mappingPath)
    if (options.versions === undefined) return
    if (this.inputs.includes("-")) {
      throw usageError(`the reader of ${mappingPath} compares versions of values across inputs ("versions"), which reads each input twice: give the interchange as a file, not as "-" (stdin)`)
    }
    const { accounts: _accounts, versions, pids: _pids, documentTypes: _documentTypes, qualifiers: _qualifiers, ...reader } = options
    const select = recordSelection(selectionOf(options))
    const selected = { columns: selectionColumns(selectionOf(options)), leftOut: (record: EdifactRecord) => select?.(record) !== undefined }
    const index = new VersionIndex(versions, reader.zone ?? "Europe/Berlin")
    const chunksOf = async (input: string): Promise<AsyncIterable<Uint8Array>> => {
      try {
        return readChunks(input, (await openInput(input)).chunks)
      } catch (cause) {
        throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
      }
    }
    try {
      for (const [file, input] of this.inputs.entries()) await index.addMessages(file, input, await chunksOf(input), reader)
      for (const [file, input] of this.inputs.entries()) await index.addValues(file, await chunksOf(input), reader, selected)
    } catch (cause) {
      throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
    }
    this.index = index
  }

  /**
   * Compares the latest versions with those earlier runs recorded in the ledger (`ledger`, with `map
   * --journal`) and tells this run's winners to it, to be recorded once mapped; warnings (orphan
   * cancellations) go to `warn`, located.
   */
  settle(ledger: MapVersions | undefined, warn: (line: string) => void): void {
    const index = this.index
    if (index === undefined) return
    index.settle(ledger)
    for (const w of index.warnings) warn(`warning: ${edifactPlace(w.fileName, w.at)}: ${w.code}: ${w.detail}`)
    // The ledger records the lines of its one input (a run with --journal maps one input).
    if (ledger !== undefined && this.inputs.length === 1) {
      for (const w of index.winners()) {
        ledger.expect({ key: w.key, line: w.line, message: w.message, sender: w.sender, document: w.document, datedText: w.datedText, dated: w.dated, raw: w.raw })
      }
    }
  }

  /** Whether `input` holds a cancellation: it acts on other inputs' values, so having none of its own is no empty export. */
  holdsCancellations(input: string): boolean {
    const index = this.index
    return index !== undefined && (this.places.get(input) ?? []).some((file) => index.holdsCancellations(file))
  }

  /** The verdicts for the next opening of `input` (the same file given twice is two inputs, in order). */
  forInput(input: string): InputVersions {
    const seen = this.opened.get(input) ?? 0
    this.opened.set(input, seen + 1)
    const file = this.places.get(input)?.[seen] ?? -1
    return { verdictOf: (item) => (file < 0 ? undefined : this.index?.verdictOf(file, item)) }
  }
}
