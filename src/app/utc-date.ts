/** Today's date in UTC, YYYY-MM-DD: the daily rally's day (the same for every player at one instant). */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);
