/**
 * Whether `zone` is an IANA time zone name this runtime knows (`Europe/Paris`, `UTC`...). An offset
 * (`+02:00`, `-0530`) is not one, though Node 22's Intl takes it as a zone: the parameter is a tz
 * database identifier, as in the reference.
 */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 100 || /^[+-]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Its usual spelling (`europe/paris` → `Europe/Paris`); a valid alias stays as given (ICU would turn
 * `Asia/Kolkata` into `Asia/Calcutta`).
 */
export function canonicalTimeZone(zone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

/**
 * A formatter of instants in one zone: `2026-11-23 18:35 GMT+01:00` (the offset always shown, so a
 * reader knows which zone the report was written in; UTC too: `GMT+00:00`, as docs/case-reports.md
 * says every time carries its offset).
 */
export function timeFormatter(zone: string): (v: Date | string | null | undefined) => string {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  return (v) => {
    if (v == null) return '-';
    const d = v instanceof Date ? v : new Date(v);
    if (Number.isNaN(d.getTime())) return String(v);
    const p: Record<string, string> = {};
    for (const part of f.formatToParts(d)) p[part.type] = part.value;
    // some ICU builds write a zero offset as `GMT` alone: the offset is shown all the same
    const offset = p.timeZoneName === 'GMT' ? 'GMT+00:00' : p.timeZoneName;
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${offset}`;
  };
}
