/**
 * The command line: commands, options, help texts and how errors become exit codes (commander parses;
 * every handler returns its exit code, nothing here exits the process).
 *
 * @module
 */
import { Command, CommanderError, Option } from "commander"
import { ERROR_CODES, WARNING_CODES } from "../index.js"
import { runEndpoints } from "./commands/endpoints.js"
import { runMap } from "./commands/map.js"
import { runSample } from "./commands/sample.js"
// serve, send, status and schema are loaded when they run: the modules they bring (node:http, fetch,
// SQLite, the OpenAPI writer) cost every other command and every worker 30 ms of start-up.
import type { runReport } from "./commands/report.js"
import type { runResolve } from "./commands/resolve.js"
import type { runSchema } from "./commands/schema.js"
import type { runSend } from "./commands/send.js"
import type { runServe } from "./commands/serve.js"
import type { runStatus } from "./commands/status.js"
import { DEFAULT_MAX_LINE_BYTES, runValidate } from "./commands/validate.js"
import { CLI_CODES, DEFAULT_DELIMITERS, EXIT, type ExitCode } from "../readers/index.js"
import { byteSize, faultSeed, integer, perSecond, portNumber, rate, wholeNumber } from "./option-values.js"
import { REPORT_FORMATS } from "./reports.js"
import { packageVersion } from "./version.js"

/**
 * The options a command's handler takes: its second parameter (after the arguments). Each command module
 * types its options once; the actions here read that type instead of repeating it.
 */
type OptionsOf<F extends (args: never, options: never, ...rest: Array<never>) => unknown> = Parameters<F>[1]

/** What the command line needs from its surroundings. */
export interface CliEnvironment {
  /** The module the validation workers run: the bundle itself. */
  readonly workerScript: URL
}

/**
 * The exit codes as `--help` lists them. What 0 and 1 mean depends on the command (a record valid, a
 * row mapped, a record stored, an account imported); the others mean the same everywhere.
 */
const exitCodesHelp = (ok: string, notOk: string, more = ""): string => `
Exit codes:
  0  ${ok}
  1  ${notOk}
  2  usage error (unknown option or endpoint, bad value, bad mapping)
  3  an input cannot be read (missing, a directory, no permission) or an output cannot be written
 70  internal error (a bug: please report it with the message)${more}`

const EXIT_CODES_HELP = exitCodesHelp("every record valid (warnings allowed) / every row mapped", "invalid or unparseable records / rows rejected")

/** The exit codes of a run stopped by a signal (send and map), with what the stop leaves. */
const signalExitHelp = (leaves: string): string => `\n130  stopped by SIGINT (Ctrl-C), 143 by SIGTERM: ${leaves}`

const codesHelp = (): string => {
  const width = Math.max(...[...Object.keys(ERROR_CODES), ...Object.keys(CLI_CODES)].map((c) => c.length))
  const list = (codes: Readonly<Record<string, string>>): string =>
    Object.entries(codes).map(([code, text]) => `  ${code.padEnd(width)}  ${text}`).join("\n")
  return `\nCodes of unreadable records and of endpoint inference:\n${list(CLI_CODES)}\n\nError codes of the contract:\n${list(ERROR_CODES)}\n\nWarning codes (never make a record invalid):\n${list(WARNING_CODES)}`
}

/** Builds the program; `done` receives the exit code of the command that ran. */
export const buildProgram = (env: CliEnvironment, done: (code: ExitCode) => void): Command => {
  const program = new Command("data-import")
    .description("The Customer Data Import API from the command line: validate payload files, map legacy exports to payloads, send them resumably, and rehearse against a reference service.")
    .version(packageVersion(env.workerScript), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ outputError: (text, write) => write(`data-import: ${text.replace(/^error: /u, "")}`) })
    .addHelpText("after", exitCodesHelp(
      "validate: every record valid (warnings allowed); map: every row mapped; send: every record stored; status: nothing known blocks the supplier's records; report: nothing left to fix",
      "invalid or unparseable records; map: rows rejected; send: records not stored; status: an account not ready or a record of the supplier not stored; report: something left to fix",
      signalExitHelp("send resumes with the same command; map leaves no file at its targets")
    ))

  program
    .command("validate")
    .description("Check every record of payload files against the contract, and report the problems with file and line.")
    .argument("<FILE...>", ".json (one payload or an array), .ndjson/.jsonl (one payload per line), or - (stdin: a JSON document or NDJSON)")
    .option("-e, --endpoint <ID>", "check every record against this endpoint (default: inferred per record from its keys)")
    .addOption(new Option("--input-format <FORMAT>", "read every input as this format (default: from the file extension; stdin: a JSON array or an object spread over lines is JSON, else NDJSON)").choices(["json", "ndjson"]))
    .addOption(new Option("-f, --format <FORMAT>", "report format").choices(REPORT_FORMATS).default("text"))
    .option("--max-errors <N>", "list at most N invalid or unparseable records; all are counted (default: 20 text, 1000 json, all ndjson)", wholeNumber(0))
    .option("--max-warnings <N>", "list at most N valid records with warnings; all are counted (default: as --max-errors)", wholeNumber(0))
    .option("--fail-on-warnings", "exit 1 when any record has a warning")
    .option("--allow-empty", "an input without records is not an error (by default it is: exit 1)")
    .option("-q, --quiet", "print only the summary line (the exit code tells the rest)")
    .option("-j, --jobs <N>", "worker threads (default: the number of cores)", wholeNumber(1))
    .option("--reject-file <FILE>", "write the invalid and unparseable records there, unchanged, one per line")
    .option("--max-line-length <BYTES>", "longest line (or JSON value) read, e.g. 16M; longer ones are reported as line_too_long", byteSize, DEFAULT_MAX_LINE_BYTES)
    .option("--documents <DIR>", "a folder laid out like the file store's root: a document_path or statement_path naming no file there is path_does_not_exist_in_file_store; its files no record names are listed on stderr")
    .addHelpText("after", `
Records: a .json file holds one payload or an array of payloads (each element is a record, located at
the line and column where it starts); an NDJSON file holds one payload per line. A UTF-8 byte order mark
and CRLF line ends are accepted; blank lines are skipped and not counted. Every problem names its file
and physical line (and column, for JSON syntax errors), and so does every warning. An input without
records (an empty file, an empty array, empty stdin) fails the run unless --allow-empty. In every report
records = valid + invalid + unparseable, and every breakdown sums to its total: byEndpoint to records
(records checked against no endpoint under "(none)"), byCode and byAttr to errors, warningsByCode to
warnings.

Reports: text (default), json (one document: { ok, totals, truncated, warningsTruncated, byCode, byAttr,
warningsByCode, byEndpoint, results, warned, empty, unreadable }), ndjson (one line per record listed,
as it is found: kind "invalid" or "unparseable" with its error, kind "warned" for a valid record with
warnings; then kind "empty" per input without records). Colour on a terminal unless NO_COLOR is set;
FORCE_COLOR=0 turns it off, FORCE_COLOR=1 on. A progress line is drawn on stderr when it is a terminal.
${codesHelp()}
${exitCodesHelp(
  "every record valid (warnings allowed unless --fail-on-warnings)",
  "invalid or unparseable records, an input without records (unless --allow-empty), warnings with --fail-on-warnings"
)}`)
    .action(async (files: Array<string>, opts: OptionsOf<typeof runValidate>) => {
      done(await runValidate(files, opts, env.workerScript))
    })

  program
    .command("map")
    .description("Map a legacy export (CSV or NDJSON records) to payloads with a JSON mapping; payloads come out as NDJSON.")
    .argument("[INPUT...]", "a .csv file (or .tsv/.txt), an .ndjson/.jsonl file of flat records, or - (stdin); for a mapping of EDIFACT or BO4E records, one or more files or folders (every file inside, recursively, sorted by path)")
    .requiredOption("-m, --mapping <MAPPING.json>", "the mapping (see examples/mappings/*.mapping.json; its JSON Schema: data-import schema --mapping)")
    .option("-o, --out <FILE>", "write the payloads there (default: stdout)")
    .option("-r, --rejects <FILE>", "write the rejected rows there as NDJSON, with their lines, rows (raw text for unreadable lines) and reasons (default: listed on stderr)")
    .option("--lineage <FILE>", "write one NDJSON line per payload, in output order: { payload: <index>, lines: [<source lines>] }")
    .option("--excluded <FILE>", "write the records left out on purpose (outside the reader file's selection: a PID, a qualifier) there as NDJSON: { file, lines, outcome, reason, detail, raw }")
    .option("--journal <FILE>", "record the run in the campaign's ledger (as given to send --journal): rows read, rejected rows, each payload's source lines")
    .option("--new-ledger", "with --journal: create the ledger if it does not exist (a new campaign); without it, a ledger that does not exist is refused")
    .option("-d, --delimiter <CHAR>", `CSV delimiter (default: detected from the header line among ${DEFAULT_DELIMITERS.map((d) => (d === "\t" ? "tab" : d)).join(" ")}); \\t for tab`)
    .option("--encoding <NAME>", "encoding: utf-8, windows-1252, latin1, utf-16le, … (a byte order mark is skipped)", "utf-8")
    .option("--skip-lines <N>", "lines above the CSV header to skip (a report title, say); the header is the first line after them that is not blank", wholeNumber(0))
    .option("--max-record-lines <N>", "most lines one quoted CSV field may span before its quote counts as never closed", wholeNumber(1), 1000)
    .option("--max-line-length <BYTES>", "longest line read, e.g. 16M; a longer row is rejected unread (its bytes are skipped)", byteSize, DEFAULT_MAX_LINE_BYTES)
    .addOption(new Option("--input-format <FORMAT>", "input format (default: from the file extension; csv for stdin)").choices(["csv", "ndjson"]))
    .addOption(new Option("-f, --format <FORMAT>", "summary format: text on stderr, or json on stdout (needs --out)").choices(["text", "json"]).default("text"))
    .option("--allow-duplicates", "keep a payload identical to an earlier one (default: rejected as duplicate_payload)")
    .option("--allow-empty", "an export without rows is not an error")
    .option("--fail-on-warnings", "reject a row (or the rows of a payload) with warnings (payload warnings, duplicate_row) instead of writing it")
    .option("-j, --jobs <N>", "worker threads for a mapping without groupBy (default: the number of cores)", wholeNumber(1))
    .option("--files-from <LIST>", "more inputs: a file naming one path (file or folder) a line, or - for stdin; for archives of many files")
    .addHelpText("after", `
Rows are streamed. A broken line (a stray or unclosed quote, a wrong number of columns, bytes not valid
in the encoding, a NUL byte) is rejected alone with its raw text, and reading goes on at the next line.
A data row may end with one empty extra column (a trailing delimiter). Lines are physical lines, the
header being line 1 (or the first line after --skip-lines that is not blank); CRLF, LF and a mix of
both are counted alike.

The mapping is checked before any row is read (exit 2): unknown keys, converters and options, and every
column it names must be in the header exactly once.

Every data line ends in exactly one payload (see --lineage), one rejection (see --rejects) or, for a
reader file that selects messages and values (EDIFACT "pids", "qualifiers"), one record left out on purpose
(see --excluded; counted by outcome and reason, never a failure); map checks this itself before it exits
(exit 70 if not), and the summary says rows read = rows in payloads + rows rejected (+ rows excluded).
A payload identical to an earlier one is rejected as duplicate_payload, and a transaction_id
repeated for one account anywhere in the input as duplicate_transaction_ids, both naming the first line.

A mapping without groupBy makes one payload per row: batches of rows are mapped in worker threads and
written in input order. With groupBy, every row is read first and each group's rows are mapped together
in one thread, wherever they are in the input: the payloads of the input sorted by its groups, groups in
the order of their first row (held in a temporary file beyond 4 MB).

Several EDIFACT (or BO4E) files (named, in folders, or listed with --files-from) are mapped one after the
other into one output, each with its own summary; one set of worker threads serves the whole run;
a payload repeated in a later file is a duplicate_payload naming the file and line of the first, and each
--lineage line names its file ({ payload, file, lines }). --journal and --format json take one input.
${exitCodesHelp(
  "every row mapped",
  "rows rejected, or an export without rows (unless --allow-empty)",
  signalExitHelp("nothing is written to the targets")
)}`)
    .action(async (inputs: Array<string>, opts: OptionsOf<typeof runMap>) => {
      done(await runMap(inputs, opts, env.workerScript))
    })

  program
    .command("schema")
    .description("Print the JSON Schema (draft 2020-12) of an endpoint's request, or with --openapi its OpenAPI 3.1 description, or with --mapping the JSON Schema of mapping files.")
    .argument("[ID]", "endpoint id (see data-import endpoints)")
    .option("--openapi", "print the OpenAPI 3.1 document of every endpoint, or reduced to the endpoint given (its path and the components it uses)")
    .option("--mapping", "print the JSON Schema of a mapping file (for editors: completion and checks of keys, converters, options)")
    .addHelpText("after", EXIT_CODES_HELP)
    .action(async (id: string | undefined, opts: OptionsOf<typeof runSchema>) => {
      done(await (await import("./commands/schema.js")).runSchema(id, opts))
    })

  program
    .command("sample")
    .description("Print generated payloads of an endpoint as NDJSON (needs the optional peer dependency fast-check).")
    .argument("<ID>", "endpoint id of a POST endpoint")
    .option("-n, --count <N>", "how many payloads", wholeNumber(1), 1)
    .option("--seed <S>", "seed, for the same payloads every time", integer)
    .option("--invalid", "generate payloads with exactly one error each (the expected attr and code go to stderr)")
    .addHelpText("after", EXIT_CODES_HELP)
    .action(async (id: string, opts: OptionsOf<typeof runSample>) => {
      done(await runSample(id, opts))
    })

  program
    .command("endpoints")
    .description("List the endpoints: id, method, path and summary.")
    .addOption(new Option("-f, --format <FORMAT>", "output format").choices(["text", "json"]).default("text"))
    .addHelpText("after", EXIT_CODES_HELP)
    .action(async (opts: Parameters<typeof runEndpoints>[0]) => {
      done(await runEndpoints(opts))
    })

  program
    .command("serve")
    .description("Run the reference service: a local, stateful Customer Data Import API for rehearsals and integration tests.")
    .option("--host <HOST>", "address to listen on (loopback unless you say otherwise)", "127.0.0.1")
    .option("--port <N>", "port; 0 picks a free one (printed on the first line)", portNumber, 0)
    .option("--state <FILE>", "keep the state in this SQLite file (default: in memory); it survives restarts")
    .option("--seed <FILE>", "seed JSON: tokens, api_keys, suppliers, accounts, market_participants (needed for a new state)")
    .option("--latency-ms <N>", "delay every request by N ms", wholeNumber(0), 0)
    .option("--fail-rate <R>", "answer this fraction of requests 503 with Retry-After, before touching the state", rate, 0)
    .option("--reset-rate <R>", "destroy the connection of this fraction of requests after their change is committed", rate, 0)
    .option("--vendor-fail-rate <R>", "answer this fraction of payment instructions 500 (vendor failure), nothing stored", rate, 0)
    .option("--fault-seed <N>", "seed of the fault decisions: the same faults for the n-th request in every run (default: random, printed)", faultSeed)
    .option("--retry-after <S>", "Retry-After of an injected 503, in seconds", wholeNumber(0), 1)
    .option("--documents <DIR>", "a folder laid out like the file store's root: a note or statement whose document is not there is answered 400 path_does_not_exist_in_file_store")
    .option("--token-ttl <SECONDS>", "lifetime of the tokens obtainKrakenToken issues", wholeNumber(1), 3600)
    .option("--refresh-ttl <SECONDS>", "lifetime of the refresh tokens it issues", wholeNumber(1), 7 * 24 * 3600)
    .addHelpText("after", `
The first line on stdout is "listening on http://HOST:PORT". Every endpoint needs
"Authorization: Token <a token of the seed>". GET /_reference/stats (same token) shows what is stored and
how often each endpoint answered with each status. Rehearsal controls (same token): POST
/_reference/suppliers/CODE/ {"status":"Ongoing"|"Paused"|"Complete"} and POST
/_reference/accounts/SUPPLIER/NUMBER/ {"status":"COMPLETED"|"IN_PROGRESS"|"UNKNOWN"}.
POST /v1/graphql/ answers the mutation obtainKrakenToken for an API key of the seed's "api_keys" (or a
refresh token): its JWTs work like the seed's tokens until they expire (see docs/credentials.md).
SIGTERM or SIGINT close idle connections, let the requests in flight finish (10 s at most), exit 0.
${EXIT_CODES_HELP}`)
    .action(async (opts: Parameters<typeof runServe>[0]) => {
      done(await (await import("./commands/serve.js")).runServe(opts))
    })

  program
    .command("send")
    .description("Send the records of NDJSON payload files to the service with the campaign's ledger: nothing lost, nothing twice, across every run.")
    .argument("<FILE...>", "NDJSON files (.ndjson, .jsonl): one payload per line, as map writes them")
    .requiredOption("--base-url <URL>", "the service, e.g. https://api.example.energy (plain http:// only to this machine, unless --allow-insecure-http)")
    .requiredOption("--journal <FILE>", "the campaign's ledger (SQLite): give the same file to every run")
    .option("--new-ledger", "create the ledger if it does not exist (the first run of a campaign); without it, a ledger that does not exist is refused")
    .option("-c, --concurrency <N>", "requests in flight at once", wholeNumber(1), 8)
    .option("--rate <R>", "at most R requests per second (retries included)", perSecond)
    .addOption(new Option("-f, --format <FORMAT>", "report format").choices(["text", "json"]).default("text"))
    .option("--results <FILE>", "write one NDJSON line per record this run wrote: file, line, endpoint, key, outcome, cause, detail")
    .option("-e, --endpoint <ID>", "send every record to this endpoint (default: inferred per record from its keys)")
    .option("--dry-run", "plan against the ledger and count what a real run would send; send nothing, write nothing")
    .option("--resend-in-doubt", "send again the records whose outcome is unknown, also where a repeat may store them twice")
    .option("--force-add-to-current-statement", "let the service move transactions outside the open statement period into it (and pin a note)")
    .option("--no-check-previously-added", "tell the service not to skip transactions it has already")
    .option("--new-base-url", "continue a ledger at a base URL it has not sent to (the same service at a new address)")
    .option("--fail-on-warnings", "do not send a record with warnings (unknown_choice, …): it ends invalid, its warnings listed")
    .option("--documents <DIR>", "a folder laid out like the file store's root: a record whose document_path or statement_path names no file there is not sent (invalid, path_does_not_exist_in_file_store)")
    .option("--max-attempts <N>", "attempts per request, retries included", wholeNumber(1), 5)
    .option("--timeout <SECONDS>", "longest wait for one answer", wholeNumber(1))
    .option("--allow-insecure-http", "allow plain http:// to a host that is not this machine (the token travels unencrypted)")
    .addHelpText("after", `
The API key comes from the environment variable DATA_IMPORT_API_KEY (tokens are obtained and renewed
with it), or a fixed token from DATA_IMPORT_TOKEN; never from an argument. Neither appears in any output,
ledger or results file (docs/credentials.md).

The ledger knows records by their natural key (a transaction by account and transaction_id, …) and the
digest of their content, whatever file or line they come from. Any file may be sent with the same ledger
at any time: a record the service has (created, already existed, moved) is never sent again, wherever
it appears; a record met with other content than the stored version is a conflict and is not sent.

Outcomes: created, already_existed, moved (a transaction the service moved into the open statement
period: only with --force-add-to-current-statement), blocked (supplier not ongoing, account not
imported or unknown, market participant or network operator not imported: sent again by every run), rejected (400: sent again once its content changed),
in_doubt (maybe stored: not sent again unless a repeat is harmless, or --resend-in-doubt), failed
(nothing stored: sent again by every run), invalid (refused here: sent once valid).

SIGINT or SIGTERM: no new requests; the answers in flight are awaited and written, then the report, exit
130 or 143. A second signal stops at once (what was in flight is then in doubt).
${exitCodesHelp(
  "every record read is stored (created, already existed or moved; now or by an earlier run)",
  "any record not stored: blocked, rejected, in doubt, failed, invalid, a conflict, …",
  signalExitHelp("the answers in flight are written; the same command resumes")
)}`)
    .action(async (files: Array<string>, opts: OptionsOf<typeof runSend>) => {
      done(await (await import("./commands/send.js")).runSend(files, opts))
    })

  program
    .command("report")
    .description("Report a campaign from its ledger: per kind, supplier and account, runs over time, services, and the problems to fix.")
    .requiredOption("--journal <FILE>", "the campaign's ledger (as given to send; read, never written)")
    .addOption(new Option("-f, --format <FORMAT>", "text, markdown (a status mail), json, csv (the to-do list: one row per problem), html (one self-contained file)").choices(["text", "markdown", "json", "csv", "html"]).default("text"))
    .option("-o, --out <FILE>", "write the report there (default: stdout)")
    .option("--limit <N>", "problems listed per kind and accounts listed (json, html); all are counted (csv lists every problem)", wholeNumber(1), 500)
    .option("--in-doubt <FILE>", "also write the records in doubt as CSV: endpoint, supplier, account, natural key in wall time (Europe/Berlin) and UTC, source file and lines, when sent; for the operators, and for resolve")
    .addHelpText("after", `
See docs/report.md for what each format shows.
${exitCodesHelp(
  "every record of the ledger is stored (created, already existed, moved) and nothing is left to fix or to look at",
  "something is left: a record not stored, rows rejected or warned about by the latest map run of an export, a conflict, a line that named no record"
)}`)
    .action(async (opts: Parameters<typeof runReport>[0]) => {
      done(await (await import("./commands/report.js")).runReport(opts))
    })

  program
    .command("resolve")
    .description("Record the service operators' answer on the records in doubt: those stored are settled, those not stored are sent by the next run.")
    .requiredOption("--journal <FILE>", "the campaign's ledger (as given to send)")
    .option("--stored <FILE>", "records the operators found stored: the in-doubt list (report --in-doubt) or its keys, one a line")
    .option("--not-stored <FILE>", "records the operators found not stored: the in-doubt list or its keys, one a line")
    .addHelpText("after", `
A key is the natural key as the in-doubt list writes it (its key or key_utc column): a JSON array of the
endpoint, supplier, account and key fields, instants in wall time or UTC. Every key must name a record in
doubt; otherwise nothing is recorded and the keys that match none are listed (exit 2). See docs/send.md.
${exitCodesHelp("the answer is recorded", "not used (a key that names no record in doubt is a usage error: 2)")}`)
    .action(async (opts: Parameters<typeof runResolve>[0]) => {
      done(await (await import("./commands/resolve.js")).runResolve(opts))
    })

  program
    .command("status")
    .description("List the accounts of an import supplier that cannot take post-import data yet (pending, in progress, unknown).")
    .argument("<SUPPLIER>", "the import supplier code")
    .argument("[ACCOUNT...]", "external account numbers to check (default: the supplier's pending accounts)")
    .requiredOption("--base-url <URL>", "the service")
    .option("--journal <FILE>", "the campaign's ledger: add what it knows of the supplier's records (blocked, rejected, …; read only)")
    .addOption(new Option("-f, --format <FORMAT>", "output format").choices(["text", "json"]).default("text"))
    .option("--allow-insecure-http", "allow plain http:// to a host that is not this machine")
    .addHelpText("after", `
The API key comes from DATA_IMPORT_API_KEY, or a token from DATA_IMPORT_TOKEN.
A supplier's status (Ongoing, Paused, Complete) is not readable through the API: a paused supplier has
no pending accounts and its accounts are imported, yet the service refuses every post-import record of
it. Without --journal the output says so; with --journal the supplier's records the ledger holds as
blocked (supplier_not_ongoing, account not imported, ...), in doubt, not yet sent or to fix are listed,
each with what to do, and exit 1.
${exitCodesHelp(
  "nothing known blocks the supplier's records: every account asked about is imported (without accounts: none is pending) and, with --journal, every record of the supplier in the ledger is stored (without --journal the supplier's own status is not checked: the API does not tell it)",
  "something known blocks: an account not ready, or with --journal a record of the supplier not stored (blocked, in doubt, not yet sent, rejected, ...)"
)}`)
    .action(async (supplier: string, accounts: Array<string>, opts: Parameters<typeof runStatus>[2]) => {
      done(await (await import("./commands/status.js")).runStatus(supplier, accounts, opts))
    })

  return program
}

/** Runs the command line and returns the exit code (usage errors are 2; help and version are 0). */
export const runCli = async (argv: ReadonlyArray<string>, env: CliEnvironment): Promise<number> => {
  let code: ExitCode = EXIT.ok
  const program = buildProgram(env, (c) => {
    code = c
  })
  try {
    await program.parseAsync([...argv])
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage
    throw error
  }
  return code
}
