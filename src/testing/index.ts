/** The testing kit (subpath `data-import-payloads/testing`). @module */
export {}
