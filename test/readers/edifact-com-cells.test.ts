/**
 * `COM` writes its number first and its kind second (C076: 3148 number, 3155 `EM` e-mail, `TE` telephone,
 * `FX` fax, `AJ` another telephone, `AL` mobile), so its cells are named by the kind: `COM+EM.1.1` is the
 * address of the nearest `COM` of kind `EM`. PARTIN and the contacts of every BDEW message write them so.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const OPTIONS: EdifactRecordOptions = { record: "CTA", groups: ["CTA"], messages: ["PARTIN:D:20B"] }

/** One message whose detail holds one CTA per entry, each followed by its COM segments. */
const interchange = (contacts: ReadonlyArray<ReadonlyArray<string>>): string => {
  const segments = ["UNH+1+PARTIN:D:20B:UN:1.0e", "BGM+10+DOC-1", "UNS+D", ...contacts.flatMap((coms, i) => [`CTA+IC+:Kontakt ${i}`, ...coms])]
  return `UNA:+.? 'UNB+UNOC:3+S:500+R:500+250101:1200+IC1'${segments.join("'")}'UNT+${segments.length + 1}+1'UNZ+1+IC1'`
}

const read = async (text: string, options: EdifactRecordOptions = OPTIONS): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([text], options)) items.push(item)
  return items
}

const NAMES = ["COM+EM.1.1", "COM+TE.1.1", "COM+FX.1.1", "COM+TE.1.1[]", "COM.1.2"]

const cellsOf = (items: ReadonlyArray<EdifactRecordItem>, names: ReadonlyArray<string>) =>
  items.map((i) => (i.kind === "record" ? Object.fromEntries(names.map((n) => [n, i.record[n]])) : `${i.kind} ${i.code}`))

describe("COM cells", () => {
  it("are named by the kind of number (3155), not by the number", async () => {
    const text = interchange([
      ["COM+mako@netz-nord.example:EM", "COM+?+49 431 123456-100:TE", "COM+0431 123456-199:TE"],
      ["COM+0431 123456-9:FX"]
    ])
    const expected = [
      { "COM+EM.1.1": "mako@netz-nord.example", "COM+TE.1.1": "+49 431 123456-100", "COM+FX.1.1": undefined, "COM+TE.1.1[]": "+49 431 123456-100;0431 123456-199", "COM.1.2": "EM" },
      // A contact without an e-mail has none: never the one of a sibling contact.
      { "COM+EM.1.1": undefined, "COM+TE.1.1": undefined, "COM+FX.1.1": "0431 123456-9", "COM+TE.1.1[]": undefined, "COM.1.2": "FX" }
    ]
    expect(cellsOf(await read(text), NAMES)).toEqual(expected)
    expect(cellsOf(await read(text, { ...OPTIONS, columns: NAMES }), NAMES)).toEqual(expected)
  })

  it("give each number to the cell of its kind, for any numbers and kinds", async () => {
    const kind = fc.constantFrom("EM", "TE", "FX", "AJ", "AL")
    const number = fc.stringMatching(/^[a-z0-9@. -]{1,20}$/u).filter((s) => s.trim() !== "")
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(number, kind), { minLength: 1, maxLength: 6 }), async (coms) => {
        const items = await read(interchange([coms.map(([n, k]) => `COM+${n}:${k}`)]))
        expect(items).toHaveLength(1)
        const record = items[0]!.kind === "record" ? items[0]!.record : {}
        for (const k of ["EM", "TE", "FX", "AJ", "AL"]) {
          const mine = coms.filter(([, kk]) => kk === k).map(([n]) => n)
          expect(record[`COM+${k}.1.1`]).toBe(mine[0])
        }
      })
    )
  })
})
