/** The LISTEN/NOTIFY channel that wakes every replica's EmailSender when mail is written (channels are database-wide). */
export const emailChannel = (schema: string): string => `email_deliveries:${schema}`;
