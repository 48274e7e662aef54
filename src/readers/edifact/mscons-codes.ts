/**
 * The names of MSCONS codes, as data: the Prüfidentifikatoren (`RFF+Z13`, DE1154), the document types
 * (`BGM` C002/1001) and the quantity qualifiers (`QTY` C186/6063), as the BDEW lists them: the MSCONS MIG
 * 2.4c (26.07.2024, code lists of `BGM` 1001, `RFF+Z13` and `QTY` 6063) and the BDEW's "Anwendungsübersicht
 * der Prüfidentifikatoren" (the shorter names there where the MIG abbreviates). A reader file's selection names each code it leaves out with
 * these words (`PID 13007 (Gasbeschaffenheit)`); docs/market-messages.md prints the same table.
 *
 * @module
 */

/** MSCONS Prüfidentifikatoren (13002–13028; 13004 and 13024 are not assigned) and their names. */
export const MSCONS_PIDS: Readonly<Record<string, string>> = {
  "13002": "Zählerstand (Gas)",
  "13003": "Summenzeitreihe",
  "13005": "EEG-Überführungszeitreihe",
  "13006": "Messwert Storno",
  "13007": "Gasbeschaffenheit",
  "13008": "Lastgang (Gas)",
  "13009": "Energiemenge (Gas)",
  "13010": "normiertes Profil",
  "13011": "Profilschar",
  "13012": "TEP Vergangenheitswerte Referenzmessung",
  "13013": "marktlokationsscharfe Allokationsliste Gas (MMMA)",
  "13014": "marktlokationsscharfe bilanzierte Menge Strom / Gas (MMMA)",
  "13015": "Arbeit Leistungsmaximum Kalenderjahr vor Lieferbeginn",
  "13016": "Energiemenge und Leistungsmaximum (Strom)",
  "13017": "Zählerstand (Strom)",
  "13018": "Lastgang Messlokation, Netzkoppelpunkt, Netzlokation",
  "13019": "Energiemenge (Strom)",
  "13020": "Ausfallarbeitsüberführungszeitreihe",
  "13021": "Übermittlung von meteorologischen Daten",
  "13022": "Redispatch 2.0 Einzelzeitreihe Ausfallarbeit",
  "13023": "Redispatch 2.0 Ausfallarbeitssummenzeitreihe",
  "13025": "Lastgang Marktlokation, Tranche",
  "13026": "EEG-Überführungszeitreihe aufgrund Ausfallarbeit",
  "13027": "Werte nach Typ 2",
  "13028": "Grundlage POG-Ermittlung"
}

/**
 * MSCONS document types (`BGM` C002/1001) and their names. A Lieferschein is no PID of its own: it is a
 * 13019 message with `BGM+Z41` or a 13016 message with `BGM+Z42` (MSCONS AHB 3.1), whose quantities are
 * `QTY+Z31`; `270` is left for cancelling a Lieferschein made before 1 April 2021.
 */
export const MSCONS_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  "7": "Prozessdatenbericht",
  "270": "Lieferschein",
  "BK": "Zeitreihen im Rahmen der Bilanzkreisabrechnung",
  "Z06": "normiertes Profil",
  "Z15": "EEG-Überführungszeitreihe",
  "Z16": "Profilschar",
  "Z20": "Vergangenheitswerte für TEP mit Referenzmessung",
  "Z21": "Gasbeschaffenheitsdaten",
  "Z23": "Bilanzierte Menge (MMMA)",
  "Z24": "Allokationsliste (MMMA)",
  "Z27": "Bewegungsdaten im Kalenderjahr vor Lieferbeginn",
  "Z28": "Energiemenge und Leistungsmaximum",
  "Z39": "Tägliche Summenzeitreihe",
  "Z41": "Lieferschein Grund-/Arbeitspreis",
  "Z42": "Lieferschein Arbeits-/Leistungspreis",
  "Z43": "Redispatch Ausfallarbeitsüberführungszeitreihe",
  "Z44": "Redispatch Übermittlung von meteorologischen Daten",
  "Z45": "Redispatch Einzelzeitreihe Ausfallarbeit",
  "Z46": "Redispatch Ausfallarbeitssummenzeitreihe",
  "Z48": "Lastgang Marktlokation, Tranche",
  "Z50": "Redispatch EEG-Überführungszeitreihe aufgrund Ausfallarbeit",
  "Z69": "Redispatch tägliche Ausfallarbeitsüberführungszeitreihe",
  "Z83": "Werte nach Typ 2",
  "Z85": "Grundlage POG-Ermittlung"
}

/** MSCONS quantity qualifiers (`QTY` C186/6063) and their names. */
export const MSCONS_QTY_QUALIFIERS: Readonly<Record<string, string>> = {
  "220": "Wahrer Wert",
  "67": "Ersatzwert",
  "201": "Vorschlagswert",
  "20": "Nicht verwendbarer Wert",
  "187": "Prognosewert",
  "79": "Energiemenge summiert (Summenwert, Bilanzsumme)",
  "Z18": "Vorläufiger Wert",
  "Z30": "Fehlender Wert",
  "Z31": "Angabe für Lieferschein",
  "Z47": "Grundlage POG-Ermittlung"
}

/**
 * A code with its name from `table`, or the code alone when the table does not know it.
 *
 * @example
 * codeWithName(MSCONS_PIDS, "13007") // => "13007 (Gasbeschaffenheit)"
 * codeWithName(MSCONS_QTY_QUALIFIERS, "Z99") // => "Z99"
 */
export const codeWithName = (table: Readonly<Record<string, string>>, code: string): string =>
  Object.hasOwn(table, code) ? `${code} (${table[code]})` : code
