/**
 * The names of UTILTS Prüfidentifikatoren (`RFF+Z13`, DE1154), as data: the BDEW's UTILTS AHB 1.0
 * (Fehlerkorrektur 18.02.2025, for UTILTS MIG 1.1e) names them so. A reader file's selection names each
 * PID it leaves out with these words (`PID 25006 (Übermittlung Übersicht Schaltzeitdefinitionen)`);
 * docs/market-messages.md prints the same table.
 *
 * @module
 */

/** UTILTS Prüfidentifikatoren (25001, 25004–25010) and their names. */
export const UTILTS_PIDS: Readonly<Record<string, string>> = {
  "25001": "Berechnungsformel",
  "25004": "Übermittlung Übersicht Zählzeitdefinitionen",
  "25005": "Übermittlung einer ausgerollten Zählzeitdefinition",
  "25006": "Übermittlung Übersicht Schaltzeitdefinitionen",
  "25007": "Übermittlung Übersicht Leistungskurvendefinitionen",
  "25008": "Übermittlung einer ausgerollten Schaltzeitdefinition",
  "25009": "Übermittlung einer ausgerollten Leistungskurvendefinition",
  "25010": "Antwort auf Berechnungsformel"
}
