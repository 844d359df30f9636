/** A time of day, with the weekday when it is not today. */
export function formatClockTime(at: number, now: number): string {
  const date = new Date(at);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? time : `${date.toLocaleDateString(undefined, { weekday: 'short' })} ${time}`;
}
