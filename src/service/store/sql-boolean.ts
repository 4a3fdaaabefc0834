/** A boolean column as a row brings it: SQLite stores 0 or 1, PostgreSQL answers a boolean. */
export type SqlBoolean = number | boolean;

export const isSqlTrue = (value: SqlBoolean): boolean => value === true || value === 1;
