/**
 * The names of PARTIN codes, as data: the Prüfidentifikatoren (`RFF+Z13`, DE1154) of the
 * Kommunikationsdaten (communication data sheets) each market role sends about itself, as the PARTIN AHB
 * 1.0e (37000–37006) and 1.0f (the Sparte in the name, 37008–37014 for gas and across Sparten) list them.
 * A reader file's selection names each PID it leaves out with these words (`PID 37000 (Kommunikationsdaten
 * des LF Strom)`), so a market role the API's `role` cannot take is named where it is skipped.
 *
 * @module
 */

/** PARTIN Prüfidentifikatoren and their names (37007 is not assigned). */
export const PARTIN_PIDS: Readonly<Record<string, string>> = {
  "37000": "Kommunikationsdaten des LF Strom",
  "37001": "Kommunikationsdaten des NB Strom",
  "37002": "Kommunikationsdaten des MSB Strom",
  "37003": "Kommunikationsdaten des BKV Strom",
  "37004": "Kommunikationsdaten des BIKO Strom",
  "37005": "Kommunikationsdaten des ÜNB Strom",
  "37006": "Kommunikationsdaten des ESA Strom",
  "37008": "Kommunikationsdaten des LF Gas",
  "37009": "Kommunikationsdaten des NB Gas",
  "37010": "Kommunikationsdaten des MSB Gas",
  "37011": "Kommunikationsdaten des MGV Gas",
  "37012": "spartenübergreifende Kommunikationsdaten des NB Gas",
  "37013": "spartenübergreifende Kommunikationsdaten des MSB Gas",
  "37014": "spartenübergreifende Kommunikationsdaten des MSB Strom"
}
