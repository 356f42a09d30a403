/** Public API of lang/myks: the converter of a legacy ytt data-values repository to a KCL tree (pure). */
export { MigrateError, migrate, type Difference, type MigrateHost, type MigrateResult } from './migrate.js';
export { DATA_SCHEMA, DATA_SCHEMA_PATH } from './data-schema.js';
