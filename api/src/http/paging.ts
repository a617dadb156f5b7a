/** A query value as a whole number, or NaN: 1.5, 1e308 and "abc" would reach the database as LIMIT/OFFSET and fail there. */
const whole = (value: unknown) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : NaN;
};

/** page and limit of a list read from its query string: whole numbers in range, the defaults for anything else. */
export function paging(query: Record<string, unknown>, defaults: { limit: number; maxLimit: number }) {
  const limit = Math.min(Math.max(whole(query.limit) || defaults.limit, 1), defaults.maxLimit);
  const page = Math.max(whole(query.page) || 1, 1);
  return { page, limit, offset: (page - 1) * limit };
}
