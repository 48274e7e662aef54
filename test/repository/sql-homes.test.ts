/**
 * SQL has two homes in `src/`: `ledger/` (the campaign's SQLite file: its schema, open/lock/recover, the
 * writers, and the queries `report` and `status` read, as functions) and `service/` (the reference
 * service's own store). Every other file reads through those functions: a file that prepares a statement
 * or writes one in a string fails here, named with the line.
 */
import { readFileSync } from "node:fs"
import { relative } from "node:path"
import { describe, expect, it } from "vitest"
import { SRC, sourceFiles } from "./layers.js"

/** The folders of `src/` that may hold SQL. */
const SQL_HOMES: ReadonlyArray<string> = ["ledger/", "service/"]

/**
 * Comments, and string literals (quoted, or a template literal up to its first backtick: a nested
 * template is read as pieces, each of which is checked).
 */
const PIECES = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\[\s\S])*`/gu

/** An SQL statement as the project writes them (keywords in capitals). */
const STATEMENT =
  /\b(?:SELECT\b[\s\S]*?\bFROM|INSERT\s+(?:OR\s+[A-Z]+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|(?:CREATE|DROP)\s+(?:TEMP(?:ORARY)?\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)|ALTER\s+TABLE|PRAGMA\s+\w+)\b/u

/** A statement prepared: `.prepare(` outside comments and strings. */
const PREPARE = /\.prepare\s*\(/u

/** The SQL of one file's text: each as `line: what`, with the physical line it starts on. */
const sqlOf = (text: string): Array<string> => {
  const found: Array<string> = []
  const lineAt = (index: number): number => text.slice(0, index).split("\n").length
  let code = ""
  let last = 0
  for (const piece of text.matchAll(PIECES)) {
    code += text.slice(last, piece.index)
    // A piece is kept in the code as spaces, so that a `.prepare(` keeps its position.
    code += piece[0].replace(/[^\n]/gu, " ")
    last = piece.index + piece[0].length
    const comment = piece[0].startsWith("/")
    const statement = comment ? null : STATEMENT.exec(piece[0])
    if (statement !== null) found.push(`${lineAt(piece.index + statement.index)}: ${statement[0].slice(0, 40)}`)
  }
  code += text.slice(last)
  for (const call of code.matchAll(new RegExp(PREPARE.source, "gu"))) found.push(`${lineAt(call.index)}: prepare(`)
  return found.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
}

describe("SQL lives in ledger/ and service/", () => {
  it("no other file of src/ prepares a statement or writes one in a string", () => {
    const files = sourceFiles(SRC).map((file) => relative(SRC, file).split("\\").join("/"))
    expect(files.length).toBeGreaterThan(100)
    const outside = files
      .filter((file) => !SQL_HOMES.some((home) => file.startsWith(home)))
      .flatMap((file) => sqlOf(readFileSync(`${SRC}/${file}`, "utf8")).map((hit) => `src/${file}:${hit}`))
    expect(outside).toEqual([])
  })

  it("finds SQL in strings and prepared statements, and none in comments or prose", () => {
    expect(sqlOf('const n = db.prepare("SELECT COUNT(*) AS n FROM records").get()')).toEqual(["1: SELECT COUNT(*) AS n FROM", "1: prepare("])
    expect(sqlOf("const q = `\n  SELECT file, lines\n  FROM map_rejects WHERE run IN (${runs})`")).toEqual(["2: SELECT file, lines\n  FROM"])
    expect(sqlOf("db.exec('CREATE TEMP TABLE report_accounts AS SELECT 1')")).toEqual(["1: CREATE TEMP TABLE"])
    expect(sqlOf('run("INSERT INTO runs (id) VALUES (?)")\nrun("UPDATE records SET state = ?")\nrun("DELETE FROM conflicts")')).toEqual([
      "1: INSERT INTO",
      "2: UPDATE records SET",
      "3: DELETE FROM"
    ])
    expect(sqlOf('db.exec(`PRAGMA threads = ${n}`)\nconst s = statements.prepare (text)')).toEqual(["1: PRAGMA threads", "2: prepare("])
    // A comment may speak of SQL; prose in a string does not hold a statement; a regular expression's exec is no SQL.
    expect(sqlOf('// SELECT name FROM runs, then db.prepare(it)\n/** DELETE FROM records */\nconst advice = "select the rows from the export"\n/x/u.exec(text)')).toEqual([])
    expect(sqlOf('const tip = "Run it again: a prepare(…) call never happens here"')).toEqual([])
  })
})
