import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type MessageItem, readMessages } from "../../src/readers/edifact/messages.js"
import { fixtureBytes } from "./edifact-fixtures.js"

const collect = async (input: Uint8Array | string, options = {}): Promise<Array<MessageItem>> => {
  const out: Array<MessageItem> = []
  for await (const item of readMessages([input], options)) out.push(item)
  return out
}

const message = (ref: string, body: ReadonlyArray<string>) => [`UNH+${ref}+MSCONS:D:04B:UN:2.4c`, ...body, `UNT+${body.length + 2}+${ref}`]
const interchange = (messages: ReadonlyArray<ReadonlyArray<string>>) =>
  ["UNB+UNOC:3+S:14+R:14+240101:0000+IC1", ...messages.flat(), `UNZ+${messages.length}+IC1`].map((s) => `${s}'`).join("\n")

describe("readMessages", () => {
  it("reads the two messages of the real German sample with their envelope", async () => {
    const items = await collect(fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz"))
    expect(items.map((i) => i.kind)).toEqual(["message", "message"])
    const bytes = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz").toString("latin1")
    // Independent count: UNT segments in the text, and the segments between UNH and UNT.
    const unts = [...bytes.matchAll(/UNT\+(\d+)\+/gu)].map((m) => Number(m[1]))
    expect(items.map((i) => (i.kind === "message" ? i.segments.length : 0))).toEqual(unts)
    expect(items[0]).toMatchObject({ type: "MSCONS", version: "D", release: "04B", association: "2.4b", number: 1, interchange: { reference: "E-121808993A" } })
  })

  it("refuses a message whose UNT count is wrong, and only that one", async () => {
    const text = interchange([message("1", ["BGM+7+A+9"]), message("2", ["BGM+7+B+9"]).map((s) => s.replace("UNT+3", "UNT+4")), message("3", ["BGM+7+C+9"])])
    const items = await collect(text)
    expect(items.map((i) => (i.kind === "message" ? i.reference : i.kind === "problem" ? i.code : i.kind))).toEqual(["1", "segment_count_mismatch", "3"])
    const problem = items[1]!
    expect(problem).toMatchObject({ at: { message: 2, messageReference: "2", interchangeReference: "IC1", segment: 7 }, segmentNumbers: [5, 6, 7] })
  })

  it("lets a wrong UNT count through with a warning when asked", async () => {
    const text = interchange([message("1", ["BGM+7+A+9"]).map((s) => s.replace("UNT+3", "UNT+9"))])
    const items = await collect(text, { segmentCount: "warn" })
    expect(items.map((i) => i.kind)).toEqual(["warning", "message"])
  })

  it("costs a message with a damaged segment, and a message cut off at the end", async () => {
    const text = interchange([message("1", ["PIA+5+1-1?x1.29.0:SRW"]), message("2", ["BGM+7+B+9"])])
    const cut = text.slice(0, text.indexOf("UNT+3+2"))
    const items = await collect(cut)
    expect(items.map((i) => (i.kind === "problem" ? i.code : i.kind))).toEqual(["invalid_release", "truncated", "interchange_not_closed"])
    expect(items[1]).toMatchObject({ at: { message: 2 } })
  })

  it("reports a UNZ count that does not match, without costing a message", async () => {
    const text = interchange([message("1", ["BGM+7+A+9"])]).replace("UNZ+1", "UNZ+2")
    const items = await collect(text)
    expect(items.map((i) => (i.kind === "problem" ? i.code : i.kind))).toEqual(["message", "message_count_mismatch"])
  })

  it("notes messages outside any interchange once for each run of them, costing none", async () => {
    const bare = (refs: ReadonlyArray<string>) => refs.flatMap((r) => message(r, ["BGM+7+A+9"])).map((s) => `${s}'`).join("")
    const text = `${bare(["1", "2"])}${interchange([message("3", ["BGM+7+C+9"])])}${bare(["4"])}`
    const items = await collect(text)
    expect(items.map((i) => (i.kind === "problem" ? i.code : i.kind === "message" ? i.reference : i.kind))).toEqual(["interchange_not_open", "1", "2", "3", "interchange_not_open", "4"])
    expect(items[0]).toMatchObject({ segmentNumbers: [], at: { segment: 1 } })
    expect(items[4]).toMatchObject({ segmentNumbers: [], at: { segment: 12 } })
  })

  it("locates a message after a UNZ in no interchange, not in the one that was closed", async () => {
    const text = `${interchange([message("1", ["BGM+7+A+9"])])}${message("2", ["BGM+7+B+9"]).map((s) => `${s}'`).join("")}`
    const items = await collect(text)
    expect(items.map((i) => (i.kind === "problem" ? i.code : i.kind))).toEqual(["message", "interchange_not_open", "message"])
    expect(items[1]!.kind === "problem" && items[1]!.at.interchangeReference).toBe(undefined)
    expect(items[2]!.kind === "message" && items[2]!.interchange).toBe(undefined)
  })

  it("gives each message the interchange whose UNB is open before it, or none", async () => {
    const stepArb = fc.constantFrom<"open" | "close" | "message">("open", "close", "message")
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
      let open: string | undefined
      const expected: Array<string | undefined> = []
      const segments = steps.flatMap((step, i) => {
        if (step === "open") {
          open = `IC${i}`
          return [`UNB+UNOC:3+S+R+240101:0000+${open}`]
        }
        if (step === "close") {
          const unz = `UNZ+0+${open ?? "none"}`
          open = undefined
          return [unz]
        }
        expected.push(open)
        return message(`M${i}`, ["BGM+7+A+9"])
      })
      const items = await collect(segments.map((s) => `${s}'`).join(""))
      expect(items.filter((i) => i.kind === "message").map((i) => (i.kind === "message" ? i.interchange?.reference : ""))).toEqual(expected)
      for (const item of items) if (item.kind === "problem" && item.at.message !== undefined) expect(item.at.interchangeReference).toBe(expected[item.at.message - 1])
    }), { numRuns: 200 })
  })

  it("reads messages in functional groups (UNG…UNE), checking each UNE, and a UNZ that counts the groups", async () => {
    const group = (ref: string, messages: ReadonlyArray<ReadonlyArray<string>>, count = messages.length) =>
      [`UNG+MSCONS+S:14+R:14+240101:0000+${ref}+UN+D:04B`, ...messages.flat(), `UNE+${count}+${ref}`]
    const text = (groups: ReadonlyArray<ReadonlyArray<string>>, count = groups.length) =>
      ["UNB+UNOC:3+S:14+R:14+240101:0000+IC1", ...groups.flat(), `UNZ+${count}+IC1`].map((s) => `${s}'`).join("")
    const two = [group("G1", [message("1", ["BGM+7+A+9"]), message("2", ["BGM+7+B+9"])]), group("G2", [message("3", ["BGM+7+C+9"])])]
    const items = await collect(text(two))
    expect(items.map((i) => (i.kind === "message" ? i.reference : `${i.kind} ${i.code}`))).toEqual(["1", "2", "3"])
    // A UNE whose count or reference is wrong, and a UNZ that counts messages instead of groups: noted, costing nothing.
    const wrong = await collect(text([group("G1", [message("1", ["BGM+7+A+9"])], 2), group("G2", [message("2", ["BGM+7+B+9"])]).map((s) => s.replace("UNE+1+G2", "UNE+1+G9"))], 2))
    expect(wrong.map((i) => (i.kind === "message" ? i.reference : `${i.kind} ${i.code}`))).toEqual(["1", "problem group_message_count_mismatch", "2", "problem group_reference_mismatch"])
    expect(wrong.filter((i) => i.kind === "problem").every((i) => i.kind === "problem" && i.segmentNumbers.length === 0)).toBe(true)
    // A message without UNT is closed by its group's UNE.
    const open = await collect(text([group("G1", [message("1", ["BGM+7+A+9"]).slice(0, -1)])]))
    expect(open.map((i) => (i.kind === "message" ? i.reference : `${i.kind} ${i.code}`))).toEqual(["problem message_not_closed"])
  })

  it("accounts for every segment of random interchanges with random damage: in one message or one problem", async () => {
    const bodyArb = fc.array(fc.constantFrom("BGM+7+A+9", "QTY+220:1", "DTM+163:202401010000?+00:303", "PIA+5+1-1?x1:SRW", "qty+1", "LOC+172+1"), { maxLength: 5 })
    await fc.assert(fc.asyncProperty(fc.array(bodyArb, { minLength: 1, maxLength: 4 }), fc.nat(), fc.boolean(), async (bodies, cutAt, wrongCount) => {
      let text = interchange(bodies.map((b, i) => message(String(i + 1), b)))
      if (wrongCount) text = text.replace("UNT+", "UNT+9")
      text = text.slice(0, text.length - (cutAt % 40))
      const items = await collect(text)
      const segments = (text.match(/'/gu) ?? []).length + (/[^'\s]\s*$/u.test(text) ? 1 : 0)
      const inMessages = items.flatMap((i) => (i.kind === "message" ? i.segments.map((s) => s.number) : i.kind === "problem" ? i.segmentNumbers : []))
      // No segment twice; every segment of a message (UNH to UNT) is in a message or a problem.
      expect(new Set(inMessages).size).toBe(inMessages.length)
      const damaged = items.filter((i) => i.kind === "problem" && i.segmentNumbers.length > 0).length
      const whole = items.filter((i) => i.kind === "message").length
      expect(whole + damaged).toBeGreaterThanOrEqual(bodies.length - (cutAt % 40 > 0 ? 1 : 0))
      expect(Math.max(0, ...inMessages)).toBeLessThanOrEqual(segments)
    }), { numRuns: 200 })
  })
})
