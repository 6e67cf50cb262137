// Where tests/e2e/serve.ts serves the app: playwright.config.ts takes both from the line it prints once the app answers.
export const baseUrl = process.env.E2E_BASE_URL ?? "";
/** The app's output, with the sign-up emails it logs (no email provider is configured). */
export const appLogFile = process.env.E2E_APP_LOG ?? "";

export const url = (path: string) => `${baseUrl}${path}`;

/** The API's 401, whose message says what is wrong with the credentials. */
const unauthorized = (message: string) => ({
  error: "Authentication required",
  code: "UNAUTHORIZED",
  success: false,
  message,
});
/** The API's answer to a request without credentials. */
export const NO_CREDENTIALS = unauthorized(
  "No credentials: send your API key as Authorization: Bearer <key> (or X-API-Key: <key>).",
);
/** The API's answer to a revoked key (the same as to a key that never existed). */
export const UNKNOWN_OR_REVOKED_KEY = unauthorized(
  "The API key is unknown or revoked: use a key listed on the dashboard's API keys page (Settings), or create one.",
);
