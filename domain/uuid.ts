const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A row id PostgreSQL's uuid type takes: any other text must answer "not found", where the database would throw. */
export const isUuid = (value: string): boolean => UUID.test(value);
