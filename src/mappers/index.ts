export { type ConversionError, type ConversionResult, fail, succeed } from "./conversion-result.js"
export { toBoolean, type ToBooleanOptions } from "./to-boolean.js"
export { type DecimalLocale, type DecimalRounding, toDecimalString, type ToDecimalStringOptions } from "./to-decimal-string.js"
export { type DateTimeFormat, toIsoDateTime, type ToIsoDateTimeOptions } from "./to-iso-date-time.js"
export { type DateFormat, toIsoDate, type ToIsoDateOptions } from "./to-iso-date.js"
export { fromMinorUnits, type MinorUnitsOptions, toMinorUnits } from "./to-minor-units.js"
export { compact } from "./compact.js"
export {
  type CollectionMapping,
  defineMapping,
  formatMappingProblem,
  type Mapping,
  type MappingProblem,
  mappingProblems,
  type MappingSpec,
  type RowFilter
} from "./define-mapping.js"
export { CONVERTER_NAMES, CONVERTERS, type Converter } from "./converters.js"
export { MappingJsonSchema } from "./mapping-schema.js"
export { headerProblems } from "./header-problems.js"
export { mappingColumns, mapsInInputOrder } from "./compile-mapping.js"
export { isExactJsonNumber } from "./is-exact-json-number.js"
export {
  type Cell,
  type ColumnSource,
  type ConstantSource,
  type ConverterName,
  type FieldSource,
  type FunctionSource,
  type LegacyRecord,
  readField
} from "./field-source.js"
export {
  type MappedPayload,
  type MappingError,
  type MappingEvent,
  type MappingResult,
  mapRecords,
  type RejectedRows
} from "./map-records.js"
