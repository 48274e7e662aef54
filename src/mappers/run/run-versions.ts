/**
 * The versions of a `map` run over EDIFACT inputs whose reader file has `versions`: every input is read
 * before anything is mapped, so that the latest version of each value is known whichever file it is in,
 * and each cancellation finds the document it names. That one reading gives the index its message headers
 * and values, and keeps each input's items in a spool (`ItemSpool`); the mapping of each input then takes
 * its items from the spool, and consults the result ({@link RunVersions.forInput}) record by record.
 *
 * @module
 */
import type { Mapping } from "../define-mapping.js"
import { type InputVersions, VersionIndex } from "../../readers/edifact/versions.js"
import type { MapVersions } from "../../ledger/map-versions.js"
import type { EdifactRecordItem } from "../../readers/edifact/records.js"
import { edifactPlace, readEdifactItems, readEdifactReaderFile } from "../../readers/edifact/edifact-source.js"
import { ioError } from "../../readers/exit-codes.js"
import { openInput, readChunks, UnreadableInput } from "../../readers/io.js"
import { EdifactItemLines } from "../../readers/edifact/item-lines.js"
import { ItemSpool, SPOOL_MEMORY } from "./item-spool.js"

/**
 * The versions of the values of a run's inputs (`inputs`, in the run's order). {@link read} reads them,
 * {@link settle} compares them with the campaign's ledger; the mapping of each input takes its items and
 * verdicts from {@link forInput}, in the run's order.
 */
export class RunVersions {
  private index: VersionIndex | undefined
  private spool: ItemSpool<EdifactRecordItem> | undefined
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
   * Reads every input once, when the reader file asks for versions (nothing is read when it does not):
   * the index learns each message's header and each value, and the items wait in the spool to be mapped.
   * `ledger`: whether {@link settle} will be given a ledger (the run's journal, which also files a
   * series warning under its record's account: only then does a warning keep its record).
   */
  async read(mapping: Mapping, mappingPath: string, ledger = true): Promise<void> {
    const { options } = await readEdifactReaderFile(mapping, mappingPath)
    if (options.versions === undefined) return
    // Keys as text only for a ledger (`ledger`: the run has one), which compares and records them.
    const index = new VersionIndex(options.versions, options.zone ?? "Europe/Berlin", ledger)
    // Records as arrays of their values: half the characters of their JSON objects, held and read back.
    const spool = new ItemSpool<EdifactRecordItem>(SPOOL_MEMORY, new EdifactItemLines())
    try {
      for (const [file, input] of this.inputs.entries()) {
        const chunks = readChunks(input, (await openInput(input)).chunks)
        const runs = await readEdifactItems(chunks, mapping, mappingPath, (message) => index.addMessage(file, input, message), ledger)
        spool.begin()
        for await (const run of runs) {
          for (const item of run) {
            if (item.kind === "record") index.addValue(file, item)
            spool.write(item)
          }
        }
      }
      spool.end()
      // A cancellation voids values read before it was known: they are added again, from the spool.
      if (index.valuesToReadAgain()) {
        index.clearValues()
        for (const file of this.inputs.keys()) for (const run of spool.read()) for (const item of run) if (item.kind === "record") index.addValue(file, item)
        spool.rewind()
      }
    } catch (cause) {
      spool.close()
      throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
    }
    this.index = index
    this.spool = spool
  }

  /** Whether the inputs were read (and their items wait to be mapped): their mapping reads no input again. */
  get spooled(): boolean {
    return this.spool !== undefined
  }

  /** Releases the spool. */
  close(): void {
    this.spool?.close()
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

  /** The items and verdicts for the next opening of `input` (the same file given twice is two inputs, in order). */
  forInput(input: string): InputVersions {
    const seen = this.opened.get(input) ?? 0
    this.opened.set(input, seen + 1)
    const file = this.places.get(input)?.[seen] ?? -1
    const spool = this.spool
    const index = this.index
    return {
      verdictOf: (item) => (file < 0 ? undefined : index?.verdictOf(file, item)),
      read: spool === undefined || index === undefined ? undefined : () => passing(spool.read(), file, index)
    }
  }
}

/**
 * The spool's items of input `file`, each told to the index as it passes ({@link VersionIndex.passing}):
 * a value whose raw text another version names may be refused before its verdict is asked (no unit).
 */
function* passing(runs: Iterable<ReadonlyArray<EdifactRecordItem>>, file: number, index: VersionIndex): Generator<ReadonlyArray<EdifactRecordItem>> {
  for (const run of runs) {
    if (file >= 0) for (const item of run) if (item.kind === "record") index.passing(file, item)
    yield run
  }
}
