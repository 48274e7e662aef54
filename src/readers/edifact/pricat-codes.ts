/**
 * The names of PRICAT Prüfidentifikatoren (`RFF+Z13`, DE1154), as data: the BDEW's AHB PRICAT 2.0c names
 * them so. A reader file's selection names each PID it leaves out with these words (`PID 27001
 * (Übermittlung der Ausgleichsenergiepreise)`); docs/market-messages.md says which the example takes.
 *
 * @module
 */

/** PRICAT Prüfidentifikatoren (27001–27003) and their names. */
export const PRICAT_PIDS: Readonly<Record<string, string>> = {
  "27001": "Übermittlung der Ausgleichsenergiepreise",
  "27002": "Preisblatt MSB-Leistungen",
  "27003": "Preisblatt NB-Leistungen"
}
