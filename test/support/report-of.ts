import { type CampaignReport, campaignReport, openReportSource } from "../../src/index.js"

/** The campaign report of the ledger at `path`, read in this thread, its source closed afterwards. */
export const reportOf = (path: string): CampaignReport => {
  const source = openReportSource(path)
  try {
    return campaignReport(source, { parallel: false })
  } finally {
    source.close()
  }
}
