/** The expiries offered when generating a key, in days from now; the action accepts only these, or none. */
export const KEY_EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** The form's value for a key that never expires. */
export const NO_EXPIRY = "never";
