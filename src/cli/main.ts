/** The `data-import` command-line tool. @module */
console.log("data-import")
