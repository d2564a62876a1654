/** IANA zone names look like `UTC`, `Europe/Paris`, `America/Argentina/Buenos_Aires`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** True for names the runtime's time-zone database knows (offsets such as `+01:00` are refused). */
export function isIanaTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
